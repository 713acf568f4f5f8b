import { examples } from './catalog.ts';

const list = document.getElementById('examples') as HTMLUListElement;
for (const example of examples) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `./${example.slug}/`;
  link.textContent = example.title;
  const summary = document.createElement('p');
  summary.textContent = example.summary;
  item.append(link, summary);
  list.append(item);
}
