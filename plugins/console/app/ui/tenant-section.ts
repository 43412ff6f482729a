// The base of a section (or a part of one) that loads its data for the
// current tenant: `contextChanged(context)` runs when the element first gets
// its context and again whenever the tenant or the roles change (a language
// change alone re-renders without reloading). The section renders from its own
// state; `t` gives the strings of the current language.
import { LitElement, type PropertyDeclarations } from 'lit';
import type { Locale } from '../i18n.ts';
import type { SectionContext } from '../sections/contract.ts';

export abstract class TenantSection<Strings = unknown> extends LitElement {
  static properties: PropertyDeclarations = { context: { attribute: false } };
  declare context: SectionContext | undefined;
  private loadedFor: { tenant: string | null; roles: SectionContext['roles'] } | undefined;

  /** The section's strings by language (set by the subclass to use `t`). */
  protected strings: Record<Locale, Strings> | undefined;

  protected get t(): Strings {
    if (!this.strings) throw new Error('strings are not set');
    return this.strings[this.context?.locale ?? 'en'];
  }

  /** Reset the state that belongs to the previous tenant and load the new one's. */
  protected abstract contextChanged(context: SectionContext): void;

  protected willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const context = this.context;
    if (!context) return;
    if (this.loadedFor && this.loadedFor.tenant === context.tenant && this.loadedFor.roles === context.roles) return;
    this.loadedFor = { tenant: context.tenant, roles: context.roles };
    this.contextChanged(context);
  }
}
