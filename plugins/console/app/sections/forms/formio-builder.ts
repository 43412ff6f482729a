// Form.io's builder (@formio/js with its builders), a chunk of its own loaded
// by the definition editor only. The components offered are those the
// server accepts and the citizens' renderer draws; the settings dialog
// leaves out what would run tenant code (calculated values, custom
// validation and conditions, logic: the server refuses them) and every
// code editor (Ace is fetched from a CDN, which the page's CSP refuses):
// descriptions and tooltips are plain text areas.
import { Formio } from '@formio/js';
import { adoptFormioStyles } from './formio-styles.ts';
import { adaptTemplates, applyStyles } from './formio-markup.ts';
import { noEval } from './formio-setup.ts';

export interface BuilderHandle {
  /** The schema as built. */
  schema(): Record<string, unknown>;
  destroy(): void;
}

/** Offered in the builder's sidebar: what the server validates and the citizens' renderer draws. */
const GROUPS = {
  basic: { default: true, components: { password: false } },
  advanced: { components: { signature: false, address: false, tags: false, survey: false } },
  layout: { components: { htmlelement: false, content: false, table: false, tabs: false } },
  data: { components: { hidden: false, datamap: false, datagrid: false, editgrid: false, tree: false } },
  premium: false,
};
const DROPPED_TABS = new Set(['logic', 'layout', 'addons']);
const PLAIN = new Set(['description', 'tooltip']);

type EditComponent = { key?: string; type?: string; editor?: string; components?: EditComponent[]; columns?: { components?: EditComponent[] }[] };

function hasCodeEditor(component: EditComponent): boolean {
  if (component.editor) return true;
  return [...(component.components ?? []), ...(component.columns ?? []).flatMap((c) => c.components ?? [])].some(hasCodeEditor);
}

/** The edit form's overrides for one component type (Form.io merges them by key). */
function editFormOverrides(type: string): unknown[] {
  const component = (Formio as any).Components.components[type];
  const form = component?.editForm?.() as { components?: EditComponent[] } | undefined;
  const tabs = form?.components?.find((c) => c.type === 'tabs')?.components ?? [];
  return tabs.map((tab) => {
    if (DROPPED_TABS.has(tab.key ?? '')) return { key: tab.key, ignore: true };
    const changed = (tab.components ?? []).filter(hasCodeEditor).map((c) =>
      PLAIN.has(c.key ?? '') && c.editor ? { key: c.key, editor: '', as: '', wysiwyg: false, overrideEditForm: true } : { key: c.key, ignore: true });
    return { key: tab.key, components: changed };
  });
}

export async function mountBuilder(target: HTMLElement, schema: Record<string, unknown>, language: string, onChange: () => void): Promise<BuilderHandle> {
  noEval(Formio);
  adaptTemplates(Formio);
  const release = adoptFormioStyles();
  const stopStyles = applyStyles(document.body);
  const types = Object.keys((Formio as any).Components.components as Record<string, unknown>);
  const editForm = Object.fromEntries(types.map((type) => [type, editFormOverrides(type)]));
  const form = { display: 'form', ...schema, components: (schema.components as unknown[] | undefined) ?? [] };
  const builder = await (Formio as any).builder(target, form, { language, builder: GROUPS, editForm, noDefaultSubmitButton: true, keyboardBuilder: true }) as any;
  builder.on('change', onChange);
  return {
    schema: () => ({ display: 'form', components: structuredClone(builder.schema.components ?? []) }),
    destroy() {
      builder.destroy?.(true);
      target.replaceChildren();
      stopStyles();
      release();
    },
  };
}
