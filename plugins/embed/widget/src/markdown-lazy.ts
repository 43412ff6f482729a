// The Markdown renderer for hosts that use the client helpers: loaded on first use, so the mount entry stays small.
export async function renderMarkdown(text: string): Promise<string> {
  return (await import('./markdown.ts')).renderMarkdown(text);
}
