import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so; where the browser refuses, says to select it. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('refused');
    }
  }
  return (
    <>
      <button type="button" class="link" onClick={() => void copy()}>{label}</button>
      <span role="status" class="muted">{state === 'copied' ? ' Copied.' : state === 'refused' ? ' The browser refused: select it and copy.' : ''}</span>
    </>
  );
}
