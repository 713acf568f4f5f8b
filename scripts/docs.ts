/**
 * `npm run docs`: builds the docs site into docs-site/ (not committed) with TypeDoc, offline:
 *
 * - the guides: every Markdown file under docs/ becomes a page (TypeDoc project documents; the
 *   page title is the file's first `# heading`; relative links between guides and to
 *   docs/figures/*.svg are resolved and copied);
 * - the API reference, generated from the doc comments of every public entry point: each
 *   package's `src/index.ts` and each subpath entry in `src/entries/*.ts`, named as users import
 *   them (`@fixedtick/core/debug`, …);
 * - the root README.md as the home page;
 * - the site's frame: the examples' favicon, the release in the title (`Fixedtick 0.1.0`, the
 *   packages' version) and header links to the examples (served at `/` by `npm start`, which
 *   serves this site at `/docs/`) and to the repository. An adapter's module page lists its own
 *   symbols first and the re-exported core ones after them, under "References", each a link to
 *   its core page (TypeDoc's reference reflections; `test/docs-site.test.ts` checks both).
 *
 * The build fails (exit code 1) when a public symbol has no doc comment, when a `{@link}` is
 * broken, or when a public symbol refers to a type that is not exported (TypeDoc validation, with
 * validation warnings treated as errors).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Application,
  Converter,
  type DocumentReflection,
  LogLevel,
  type TypeDocOptions,
} from 'typedoc';
import { undocumentedSymbols } from './lib/doc-check.ts';
import { publicEntries } from './lib/entries.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The release the site documents: the packages share one version (Changesets keeps them fixed). */
const version = (
  JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')) as { version: string }
).version;
/** The repository, as the packages' `repository` field names it. */
const REPOSITORY = 'https://github.com/fixedtick/fixedtick';

/**
 * Reading order of the guides, by file name under docs/ (without `.md`): getting started, the
 * model, the porting guides, then reference material. Guides not listed follow alphabetically.
 */
const GUIDE_ORDER = [
  'getting-started',
  'three',
  'rapier',
  'react-three',
  'babylon',
  'timing-model',
  'interpolation',
  'input-and-determinism',
  'multiplayer',
  'timing-graph',
  'cross-origin-isolation',
  'porting/unity',
  'porting/godot',
  'porting/roblox',
  'guarantees',
  'errors',
  'examples',
  'comparison',
];

/** First `# heading` of a Markdown text, if any. */
function firstHeading(markdown: string): string | undefined {
  const m = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown);
  // Titles are plain text in the navigation: drop inline-code backticks and emphasis.
  return m?.[1].replace(/`|\*\*/g, '');
}

/** Builds the site into `out` (default docs-site/); resolves to the process exit code. */
export async function buildDocs(out = join(root, 'docs-site')): Promise<number> {
  const entries = publicEntries();
  const readme = join(root, 'README.md');
  const options: Partial<TypeDocOptions> = {
    name: `Fixedtick ${version}`,
    favicon: join(root, 'examples/public/favicon.svg'),
    navigationLinks: { Examples: '/', Repository: REPOSITORY },
    entryPoints: entries.map((e) => e.file),
    entryPointStrategy: 'resolve',
    tsconfig: join(root, 'tsconfig.docs.json'),
    // Type errors are `npm run typecheck`'s job; the docs build checks documentation.
    skipErrorChecking: true,
    projectDocuments: [join(root, 'docs/**/*.md')],
    readme: existsSync(readme) ? readme : 'none',
    out,
    cleanOutputDir: true,
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    disableSources: true,
    hideGenerator: true,
    sortEntryPoints: false,
    // TypeDoc's defaults plus the languages of the porting guides (C#, GDScript, Luau/Lua).
    highlightLanguages: [
      'bash',
      'console',
      'css',
      'html',
      'javascript',
      'json',
      'jsonc',
      'json5',
      'yaml',
      'tsx',
      'typescript',
      'sh',
      'csharp',
      'gdscript',
      'lua',
      'luau',
      'diff',
    ],
    ignoredHighlightLanguages: ['text', 'txt', 'plaintext'],
    validation: {
      notExported: true,
      invalidLink: true,
      invalidPath: true,
      rewrittenLink: false,
      // Our own, stricter-where-it-matters check runs below (scripts/lib/doc-check.ts).
      notDocumented: false,
      unusedMergeModuleWith: true,
    },
    treatValidationWarningsAsErrors: true,
    logLevel: LogLevel.Info,
  };
  const app = await Application.bootstrapWithPlugins(options);

  // Name each module as users import it, not by its path.
  const bySource = new Map(entries.map((e) => [e.file, e.specifier]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      const file = context
        .getSymbolFromReflection(module)
        ?.declarations?.[0]?.getSourceFile().fileName;
      const specifier = file === undefined ? undefined : bySource.get(file);
      if (specifier !== undefined) module.name = specifier;
    }
  });
  // A guide's title is its first heading (or its front-matter `title`).
  // Guides in reading order (by file name); others follow alphabetically.
  const fileNameOf = new Map<DocumentReflection, string>();
  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, doc: DocumentReflection) => {
    fileNameOf.set(doc, doc.name);
    if (typeof doc.frontmatter.title === 'string') return;
    const text = doc.content.map((part) => part.text).join('');
    const title = firstHeading(text);
    if (title !== undefined) doc.name = title;
  });
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const rank = (doc: DocumentReflection): number => {
      const at = GUIDE_ORDER.indexOf(fileNameOf.get(doc) ?? '');
      return at < 0 ? GUIDE_ORDER.length : at;
    };
    const byRank = (a: DocumentReflection, b: DocumentReflection): number =>
      rank(a) - rank(b) || a.name.localeCompare(b.name);
    const project = context.project;
    project.documents?.sort(byRank);
    const docs = project.documents ?? [];
    const rest = (project.childrenIncludingDocuments ?? []).filter(
      (c) => !docs.includes(c as DocumentReflection),
    );
    project.childrenIncludingDocuments = [...docs, ...rest];
  });

  const project = await app.convert();
  if (project === undefined) {
    console.error('docs: TypeDoc could not convert the project');
    return 1;
  }
  app.validate(project);
  const validationProblems = app.logger.errorCount + app.logger.warningCount;
  const missing = undocumentedSymbols(project);
  // Write the site even when the checks fail, so the failure can be looked at; the exit code
  // still fails the build.
  await app.generateDocs(project, options.out as string);
  const modules = project.children?.map((c) => c.name) ?? [];
  const guides = project.documents?.length ?? 0;
  console.log(
    `docs: wrote ${relative(root, options.out as string)}/ — API of ${modules.join(', ')}; ${guides} guides`,
  );
  for (const name of missing) console.error(`docs: no doc comment: ${name}`);
  if (validationProblems > 0 || missing.length > 0 || app.logger.hasErrors()) {
    console.error(
      `docs: FAILED — ${missing.length} public symbols without a doc comment, ${validationProblems} TypeDoc errors/validation warnings (see above)`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await buildDocs();
}
