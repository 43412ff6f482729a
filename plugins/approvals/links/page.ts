// The minimal HTML of a decision link: a confirmation page whose form POSTs
// (opening the link decides nothing: mail scanners prefetch GETs), and the
// page after the decision. It shows the case's title and the decision only.
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<meta name="robots" content="noindex"><title>${escape(title)}</title>`
    + `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}`
    + `textarea{width:100%;min-height:4rem}button{font-size:1rem;padding:.5rem 1.25rem}</style></head><body>${body}</body></html>`;
}

const verb = (decision: 'approve' | 'reject') => (decision === 'approve' ? 'Approve' : 'Reject');

export function confirmPage(view: { title: string; decision: 'approve' | 'reject'; status: string }): string {
  if (view.status !== 'pending') {
    return page('Approval', `<h1>${escape(view.title)}</h1><p>This request is already ${escape(view.status)}.</p>`);
  }
  return page(`${verb(view.decision)}: ${view.title}`, `<h1>${escape(view.title)}</h1>`
    + `<form method="post"><p><label for="comment">Comment (optional)</label><br><textarea id="comment" name="comment" maxlength="2000"></textarea></p>`
    + `<p><button type="submit">${verb(view.decision)}</button></p></form>`);
}

export function decidedPage(view: { title: string; decision: 'approve' | 'reject'; status: string }): string {
  const outcome = view.status === 'pending' ? 'Your decision is recorded; the request awaits other approvers.' : `The request is now ${escape(view.status)}.`;
  return page('Decision recorded', `<h1>${escape(view.title)}</h1><p>You chose: ${view.decision === 'approve' ? 'approve' : 'reject'}. ${outcome}</p>`);
}
