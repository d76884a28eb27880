/**
 * Every message's two parts from one description: a plain-text part and an HTML part with inline styles and
 * no remote images (mail clients block them, and they would tell a sender when a message was opened).
 */
export interface MailContent {
  /** The first line: "Hello Ada,". */
  greeting: string;
  paragraphs: string[];
  /** The one thing to do, as a button in HTML and a bare link in text. */
  action?: { label: string; url: string };
  /** After the action: how long the link is valid, what to do if this was not you. */
  closing?: string[];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SIGNATURE = '— Publisher Portal';

export function renderMail(content: MailContent): { text: string; html: string } {
  const { greeting, paragraphs, action, closing = [] } = content;
  const text = [
    greeting,
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...closing,
    SIGNATURE,
  ].join('\n\n');
  const p = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#ffffff;` +
      `padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#52525b">Or paste this link into your browser:<br>` +
      `<span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : '';
  const html =
    `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f5">` +
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;` +
    `font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:15px;line-height:1.5;color:#18181b">` +
    p(greeting) +
    paragraphs.map(p).join('') +
    button +
    closing.map(p).join('') +
    p(SIGNATURE) +
    `</div></body></html>`;
  return { text, html };
}
