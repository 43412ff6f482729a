// A v1 type's Form.io form (a lazily loaded chunk: the renderer is large and
// only a v1 type needs it). The form is rendered into a light-DOM child of
// the element, projected through a slot, not inside the shadow root: Form.io
// finds its elements, wires its widgets and places its error list through
// document-level lookups, and its markup expects the page's styles, none of
// which reach into a shadow root. The element's own submit button sends the
// report: the schema's buttons are left out.
import { Formio } from '@formio/js/form';

export interface FormioHandle {
  /** The data when the form is valid (errors shown in the form otherwise), else null. */
  validate(): Promise<Record<string, unknown> | null>;
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

export async function renderFormio(target: HTMLElement, schema: Record<string, unknown>, language: string): Promise<FormioHandle> {
  const form = { ...schema, display: 'form', components: withoutButtons((schema.components as Component[] | undefined) ?? []) };
  const instance = await Formio.createForm(target, form, { language, noAlerts: false, noDefaultSubmitButton: true }) as any;
  return {
    async validate() {
      instance.setPristine?.(false);
      const data = instance.submission?.data ?? {};
      const valid = instance.checkValidity(data, true, data);
      if (!valid) {
        instance.showErrors?.();
        return null;
      }
      const { submit: _ignored, ...values } = data as Record<string, unknown>;
      return values;
    },
    destroy: () => instance.destroy?.(),
  };
}
