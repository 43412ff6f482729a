// The event a page of the Forms section sends to move to another page.
export type FormsView = { page: 'definitions' } | { page: 'definition'; id: string } | { page: 'use-cases' } | { page: 'use-case'; id: string | null } | { page: 'submissions' };

export function openEvent(view: FormsView): CustomEvent<FormsView> {
  return new CustomEvent('forms-open', { detail: view, bubbles: true, composed: true });
}
