// The generated parts of the docs: the jail-service's tools and actions, rendered from their
// declarations (kit/src/jail-api/actions.ts, jail-service/src/tools/*.ts) into the marked
// sections `<!-- generated:ID -->…<!-- /generated:ID -->` of DOC_FILES. `npm run docs:tools`
// writes them; test/repository/tool-docs.test.ts fails when a committed section differs.
import { readFileSync } from 'node:fs';
import {
  actionContracts,
  actionSchema,
  actionTypes,
  downloadRoutes,
  uploadRoutes,
} from '@clawdie/kit/jail-api';
import { needsLanding } from '../../controlplane/src/governance/policy/landing-facts.js';
import { toolDeclarations } from '../../jail-service/src/tools/registry.js';
import type { TimeoutPolicy } from '../../jail-service/src/tools/tool.js';

/** The docs that hold generated sections. */
export const DOC_FILES = [
  'docs/jail-service-api.md',
  'docs/architecture.md',
  'docs/performance.md',
  'docs/security.md',
];

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');

function bound(policy: TimeoutPolicy): string {
  const extra = policy.extraMs ? ` + ${policy.extraMs} ms` : '';
  return `${policy.base}${extra}`;
}

/** Every tool `GET /tools` lists, in its order. */
function toolTable(): string {
  const rows = toolDeclarations.map((tool) =>
    [code(tool.name), tool.namespace, bound(tool.timeout), cell(tool.description)].join(' | '),
  );
  return ['| Tool | Namespace | Bound | Description |', '| --- | --- | --- | --- |']
    .concat(rows.map((row) => `| ${row} |`))
    .join('\n');
}

/** Each action of `POST /actions`: an example, where it lands, `expect`, the gate's landing call. */
function actionTable(): string {
  const rows = actionTypes.map((type) => {
    const contract = actionContracts[type];
    const example = actionSchema.parse(contract.example);
    return [
      code(type),
      code(cell(JSON.stringify(example))),
      contract.lands,
      contract.takesExpect ? 'yes' : '—',
      needsLanding(example) ? 'yes' : '—',
    ].join(' | ');
  });
  return [
    '| Action | Example | Lands (`POST /landing`) | Takes `expect` | Landing call first |',
    '| --- | --- | --- | --- | --- |',
  ]
    .concat(rows.map((row) => `| ${row} |`))
    .join('\n');
}

/** The actions the controlplane runs without asking `POST /landing` first (inline in prose). */
function noLandingCall(): string {
  const types = actionTypes.filter(
    (type) => !needsLanding(actionSchema.parse(actionContracts[type].example)),
  );
  return types.map(code).join(', ');
}

/** The download or upload routes (kit/src/jail-api/downloads.ts, uploads.ts). */
function routeTable(routes: typeof downloadRoutes | typeof uploadRoutes): string {
  const rows = routes.map((route) =>
    [code(`${route.method} ${route.path}`), cell(route.description)].join(' | '),
  );
  return ['| Route | What it does |', '| --- | --- |']
    .concat(rows.map((row) => `| ${row} |`))
    .join('\n');
}

/** Each generated section's content by its id. */
export function generatedSections(): Map<string, string> {
  return new Map([
    ['tools', `\n${toolTable()}\n`],
    ['actions', `\n${actionTable()}\n`],
    ['no-landing-call', noLandingCall()],
    ['download-routes', `\n${routeTable(downloadRoutes)}\n`],
    ['upload-routes', `\n${routeTable(uploadRoutes)}\n`],
  ]);
}

const MARKED = /<!-- generated:([a-z-]+) -->([\s\S]*?)<!-- \/generated:\1 -->/g;

/** `text` with every marked section replaced by its generated content; throws on an unknown id. */
export function withGeneratedSections(text: string, sections: Map<string, string>): string {
  return text.replace(MARKED, (_marked, id: string) => {
    const content = sections.get(id);
    if (content === undefined) throw new Error(`no generator for the section "${id}"`);
    return `<!-- generated:${id} -->${content}<!-- /generated:${id} -->`;
  });
}

/** The marked sections of `text`, in order: id and committed content. */
export function sectionsOf(text: string): Array<{ id: string; content: string }> {
  return [...text.matchAll(MARKED)].map((match) => ({
    id: match[1] ?? '',
    content: match[2] ?? '',
  }));
}

/** Each doc's committed text and the text it should have. */
export function docsWithSections(): Array<{ file: string; committed: string; generated: string }> {
  const sections = generatedSections();
  return DOC_FILES.map((file) => {
    const committed = readFileSync(file, 'utf8');
    return { file, committed, generated: withGeneratedSections(committed, sections) };
  });
}
