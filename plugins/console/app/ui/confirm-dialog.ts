// confirmDialog({message, confirmLabel, cancelLabel}): a modal <dialog> that
// asks before a destructive action; resolves true on confirm, false on
// cancel or Escape. Focus returns to what had it.
import { LitElement, css, html } from 'lit';

export class ConfirmDialog extends LitElement {
  static properties = { message: {}, confirmLabel: {}, cancelLabel: {} };
  declare message: string;
  declare confirmLabel: string;
  declare cancelLabel: string;
  constructor() {
    super();
    this.message = '';
    this.confirmLabel = 'Confirm';
    this.cancelLabel = 'Cancel';
  }
  private resolve: ((value: boolean) => void) | undefined;
  static styles = css`
    dialog { border: 1px solid var(--border); border-radius: 10px; padding: 1.25rem; background: var(--surface); color: var(--fg); max-width: 28rem; }
    dialog::backdrop { background: rgb(0 0 0 / 0.4); }
    .actions { display: flex; gap: 0.5rem; justify-content: flex-end; margin-top: 1rem; }
    button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--border); background: var(--surface); color: var(--fg); cursor: pointer; }
    .danger { background: var(--error); border-color: var(--error); color: #fff; }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  `;
  open(): Promise<boolean> {
    void this.updateComplete.then(() => this.renderRoot.querySelector('dialog')!.showModal());
    return new Promise((resolve) => { this.resolve = resolve; });
  }
  private close(value: boolean): void {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(value);
    this.resolve = undefined;
    this.remove();
  }
  render() {
    return html`<dialog aria-label=${this.message} @cancel=${(e: Event) => { e.preventDefault(); this.close(false); }}>
      <p>${this.message}</p>
      <div class="actions"><button type="button" @click=${() => this.close(false)}>${this.cancelLabel}</button>
      <button type="button" class="danger" @click=${() => this.close(true)}>${this.confirmLabel}</button></div>
    </dialog>`;
  }
}
if (!customElements.get('console-confirm')) customElements.define('console-confirm', ConfirmDialog);

export function confirmDialog(options: { message: string; confirmLabel: string; cancelLabel: string }): Promise<boolean> {
  const previous = document.activeElement as HTMLElement | null;
  const dialog = Object.assign(document.createElement('console-confirm') as ConfirmDialog, options);
  document.body.append(dialog);
  return dialog.open().finally(() => previous?.focus());
}
