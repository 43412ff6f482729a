// The Settings section (admin): the tenant's members and their roles
// (members.ts), its clients and API keys (access.ts), its public origins
// (origins.ts).
import { LitElement, html } from 'lit';
import type { SectionContext } from '../contract.ts';
import './members.ts';
import './access.ts';
import './origins.ts';

export default class SettingsSection extends LitElement {
  static properties = { context: { attribute: false } };
  declare context: SectionContext | undefined;

  render() {
    return html`<console-settings-members .context=${this.context}></console-settings-members>
      <console-settings-access .context=${this.context}></console-settings-access>
      <console-settings-origins .context=${this.context}></console-settings-origins>`;
  }
}
