// The Forms section (admin): form definitions with their versions, the
// Form.io builder and a preview (definitions.ts, definition.ts), use cases
// with their bindings and a hydration preview (use-cases.ts, use-case.ts,
// bindings.ts), submissions with their hydration (submissions.ts).
// Form.io renders in this element's light DOM (FORMIO_CONTAINER), projected
// where the definition page puts its <slot name="formio">: its builder needs
// document lookups that a shadow root would hide.
import { html } from 'lit';
import type { SectionContext } from '../contract.ts';
import { TenantSection } from '../../ui/tenant-section.ts';
import { FORMS_STRINGS, type FormsStrings } from './strings.ts';
import { formsStyles } from './styles.ts';
import type { FormsView } from './open.ts';
import './definitions.ts';
import './definition.ts';
import './use-cases.ts';
import './use-case.ts';
import './submissions.ts';

type View = FormsView;

export default class FormsSection extends TenantSection<FormsStrings> {
  static properties = { ...TenantSection.properties, view: { state: true } };
  declare view: View;
  static styles = formsStyles;
  protected strings = FORMS_STRINGS;
  /** Where Form.io renders: a light-DOM child, shown through the definition page's slot. */
  private readonly formio = document.createElement('div');

  constructor() {
    super();
    this.view = { page: 'definitions' };
    this.formio.slot = 'formio';
    this.formio.className = 'console-formio';
  }

  connectedCallback(): void {
    super.connectedCallback();
    if (this.formio.parentNode !== this) this.appendChild(this.formio);
  }

  protected contextChanged(_context: SectionContext): void {
    this.view = { page: 'definitions' };
  }

  private go(view: View): void {
    this.view = view;
  }

  private tab(page: 'definitions' | 'use-cases' | 'submissions', label: string) {
    const current = this.view.page === page || (page === 'definitions' && this.view.page === 'definition') || (page === 'use-cases' && this.view.page === 'use-case');
    return html`<li><button type="button" aria-current=${current ? 'page' : 'false'} @click=${() => this.go({ page } as View)}>${label}</button></li>`;
  }

  private page() {
    const view = this.view;
    const open = (event: CustomEvent<View>) => this.go(event.detail);
    switch (view.page) {
      case 'definitions': return html`<console-forms-definitions .context=${this.context} @forms-open=${open}></console-forms-definitions>`;
      case 'definition': return html`<console-forms-definition .context=${this.context} .definitionId=${view.id} .formio=${this.formio} @forms-open=${open}><slot name="formio"></slot></console-forms-definition>`;
      case 'use-cases': return html`<console-forms-use-cases .context=${this.context} @forms-open=${open}></console-forms-use-cases>`;
      case 'use-case': return html`<console-forms-use-case .context=${this.context} .useCaseId=${view.id} @forms-open=${open}></console-forms-use-case>`;
      case 'submissions': return html`<console-forms-submissions .context=${this.context}></console-forms-submissions>`;
    }
  }

  render() {
    return html`<nav aria-label=${this.t.pages}><ul class="pages">
        ${this.tab('definitions', this.t.definitions)}${this.tab('use-cases', this.t.useCases)}${this.tab('submissions', this.t.submissions)}
      </ul></nav>
      ${this.page()}`;
  }
}
