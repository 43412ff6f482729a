// Form.io's renderer (@formio/js/form, the one the citizens' report element
// uses, with the same component set), a chunk of its own: a form version
// drawn as a citizen sees it, its buttons left out (the preview's own button
// checks it), validated by Form.io in the page as a citizen's submit is.
import { Formio } from '@formio/js/form';
import { adoptFormioStyles } from './formio-styles.ts';
import { adaptTemplates, applyStyles } from './formio-markup.ts';
import { noEval } from './formio-setup.ts';

export interface PreviewHandle {
  /** Form.io's check: the data when valid, else null (its errors shown in the form). */
  validate(): Promise<Record<string, unknown> | null>;
  /** The data as entered. */
  data(): Record<string, unknown>;
  destroy(): void;
}

type Component = { type?: string; components?: Component[]; columns?: { components?: Component[] }[]; [key: string]: unknown };

function withoutButtons(components: Component[]): Component[] {
  return components.filter((c) => c.type !== 'button').map((c) => ({
    ...c,
    ...(c.components ? { components: withoutButtons(c.components) } : {}),
    ...(c.columns ? { columns: c.columns.map((col) => ({ ...col, components: withoutButtons(col.components ?? []) })) } : {}),
  }));
}

export async function mountPreview(target: HTMLElement, schema: Record<string, unknown>, language: string): Promise<PreviewHandle> {
  noEval(Formio);
  adaptTemplates(Formio);
  const release = adoptFormioStyles();
  const stopStyles = applyStyles(document.body);
  const form = { ...schema, display: 'form', components: withoutButtons((schema.components as Component[] | undefined) ?? []) };
  const instance = await Formio.createForm(target, form, { language, noAlerts: false, noDefaultSubmitButton: true }) as any;
  const values = () => {
    const { submit: _ignored, ...rest } = (instance.submission?.data ?? {}) as Record<string, unknown>;
    return rest;
  };
  return {
    async validate() {
      instance.setPristine?.(false);
      const data = instance.submission?.data ?? {};
      if (!instance.checkValidity(data, true, data)) {
        instance.showErrors?.();
        return null;
      }
      return values();
    },
    data: values,
    destroy() {
      instance.destroy?.();
      target.replaceChildren();
      stopStyles();
      release();
    },
  };
}
