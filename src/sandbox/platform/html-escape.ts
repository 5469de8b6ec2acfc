/** Escapes text for HTML element content and double-quoted attributes (every page of the sandbox: signing, console, consent). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
