import { useState } from 'preact/hooks';
import type { Translate } from '../i18n.js';

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // older or non-secure contexts: a hidden textarea and execCommand
  const area = document.createElement('textarea');
  area.value = text;
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function CopyButton({ text, label, t }: { text: string; label: string; t: Translate }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void writeClipboard(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <button type="button" class="btn" onClick={copy} aria-label={label}>
      {copied ? t('copied') : t('copy')}
    </button>
  );
}
