import { examples, sourceUrl } from './catalog.ts';

/** One gallery card: thumbnail and title link to the page, summary, what to look at, source. */
function card(example: (typeof examples)[number]): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'card';
  const thumb = document.createElement('a');
  thumb.href = `./${example.slug}/`;
  thumb.className = 'thumb';
  thumb.tabIndex = -1; // the title link is the one keyboard stop
  const image = document.createElement('img');
  image.src = `./thumbnails/${example.slug}.png`;
  image.alt = `${example.title}: a still of the page`;
  image.width = 480;
  image.height = 270;
  thumb.append(image);
  const title = document.createElement('a');
  title.href = `./${example.slug}/`;
  title.className = 'title';
  title.textContent = example.title;
  const summary = document.createElement('p');
  summary.textContent = example.summary;
  const look = document.createElement('p');
  look.className = 'look';
  look.textContent = `What to look at: ${example.lookFor}`;
  const source = document.createElement('a');
  source.href = sourceUrl(example.slug);
  source.className = 'source';
  source.textContent = 'View source';
  item.append(thumb, title, summary, look, source);
  return item;
}

const list = document.getElementById('examples') as HTMLUListElement;
list.append(...examples.map(card));
