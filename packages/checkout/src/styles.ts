import type { Appearance } from './types.js';

/** Only safe CSS values reach the stylesheet: a merchant typo must not open a CSS injection. */
function safe(value: string | undefined, fallback: string): string {
  return value && /^[\w\s#%(),.+\-"'/]+$/.test(value) ? value : fallback;
}

export function themeVars(appearance: Appearance = {}): string {
  const dark = appearance.theme === 'dark';
  return [
    `--fk-accent:${safe(appearance.accentColor, dark ? '#7aa2ff' : '#3056d3')}`,
    `--fk-radius:${safe(appearance.radius, '12px')}`,
    `--fk-font:${safe(appearance.fontFamily, 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif')}`,
    `--fk-bg:${dark ? '#15171c' : '#ffffff'}`,
    `--fk-fg:${dark ? '#f2f3f5' : '#16181d'}`,
    `--fk-muted:${dark ? '#a3a9b6' : '#5b6270'}`,
    `--fk-line:${dark ? '#2c303a' : '#e3e5ea'}`,
    `--fk-soft:${dark ? '#1e2128' : '#f5f6f8'}`,
    `--fk-ok:${dark ? '#4ad49a' : '#12805c'}`,
    `--fk-warn:${dark ? '#f3b45a' : '#9a5b00'}`,
    `--fk-bad:${dark ? '#ff7b7b' : '#c02a2a'}`,
  ].join(';');
}

/**
 * `:host` declarations are !important: for important rules the shadow tree wins over the page,
 * so even `* { all: unset !important }` on the host page cannot hide or restyle the widget.
 * Inherited properties are reset on .fk so nothing of the page's font or colour leaks in.
 */
export const CSS = `
:host{all:initial !important;display:block !important;width:100% !important;max-width:100% !important;min-width:0 !important;box-sizing:border-box !important;visibility:visible !important;opacity:1 !important}
.fk{all:initial;display:block;box-sizing:border-box;font-family:var(--fk-font);font-size:15px;line-height:1.45;color:var(--fk-fg);background:var(--fk-bg);border:1px solid var(--fk-line);border-radius:var(--fk-radius);padding:20px;max-width:480px;margin:0 auto;text-align:left;-webkit-font-smoothing:antialiased}
.fk *,.fk *::before,.fk *::after{box-sizing:border-box;font:inherit;color:inherit;margin:0;padding:0}
.fk strong,.fk b{font-weight:650}
.fk h2{font-size:17px;font-weight:650;margin:0 0 4px}
.fk p{margin:0}
.fk section{margin-top:18px}
.fk > section:first-child{margin-top:0}
.muted{color:var(--fk-muted);font-size:13px}
.head{display:flex;align-items:center;gap:10px}
.logo{width:36px;height:36px;border-radius:8px;object-fit:cover;background:var(--fk-soft);flex:none}
.logo-fallback{display:flex;align-items:center;justify-content:center;font-weight:700;color:#fff;background:var(--fk-accent)}
.badge{margin-left:auto;font-size:11px;font-weight:600;padding:2px 8px;border-radius:99px;background:var(--fk-soft);color:var(--fk-warn);border:1px solid var(--fk-line)}
.amount{font-size:30px;font-weight:700;letter-spacing:-.01em;margin-top:2px;word-break:break-word}
.amount small{font-size:16px;font-weight:600;color:var(--fk-muted);margin-left:6px}
.notice{margin-top:10px;padding:10px 12px;border-radius:calc(var(--fk-radius) - 4px);background:var(--fk-soft);border-left:3px solid var(--fk-warn);font-size:14px}
.steps{display:grid;grid-template-columns:repeat(4,1fr);gap:6px;list-style:none}
.step{font-size:12px;color:var(--fk-muted);border-top:3px solid var(--fk-line);padding-top:6px}
.step.done{border-color:var(--fk-ok);color:var(--fk-fg)}
.step.current{border-color:var(--fk-accent);color:var(--fk-fg);font-weight:600}
.row{display:flex;align-items:center;gap:8px;flex-wrap:wrap;margin-top:6px}
.field{flex:1 1 180px;min-width:0;padding:9px 10px;border-radius:calc(var(--fk-radius) - 4px);background:var(--fk-soft);border:1px solid var(--fk-line);font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}
.btn{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;justify-content:center;gap:6px;cursor:pointer;padding:9px 14px;border-radius:calc(var(--fk-radius) - 4px);border:1px solid var(--fk-line);background:var(--fk-bg);color:var(--fk-fg);font-family:var(--fk-font);font-size:14px;font-weight:600;min-height:40px;text-align:center}
.btn:hover{background:var(--fk-soft)}
.btn:focus-visible,.opt:focus-within,a:focus-visible{outline:3px solid var(--fk-accent);outline-offset:2px}
.btn[disabled]{opacity:.55;cursor:default}
.btn.primary{background:var(--fk-accent);border-color:var(--fk-accent);color:#fff;width:100%}
.btn.primary:hover{filter:brightness(1.08)}
.btn.link{border:none;padding:4px 0;min-height:0;color:var(--fk-accent);text-decoration:underline}
.qr{display:flex;flex-direction:column;align-items:center;gap:8px;margin-top:12px}
.qr svg{width:200px;max-width:100%;height:auto;background:#fff;padding:8px;border-radius:8px}
.opts{display:grid;gap:8px;border:none}
.opt{display:flex;align-items:center;gap:10px;padding:10px 12px;border:1px solid var(--fk-line);border-radius:calc(var(--fk-radius) - 4px);cursor:pointer;flex-wrap:wrap}
.opt.sel{border-color:var(--fk-accent);box-shadow:0 0 0 1px var(--fk-accent)}
.opt input{all:revert;accent-color:var(--fk-accent);margin:0}
.opt .grow{flex:1;min-width:0}
.end{text-align:center;padding:12px 0}
.end .icon{display:block;margin:0 auto 8px}
.end.ok .icon{color:var(--fk-ok)}
.end.bad .icon{color:var(--fk-bad)}
.err{padding:12px;border-radius:calc(var(--fk-radius) - 4px);border:1px solid var(--fk-bad);color:var(--fk-fg)}
.err p{margin-bottom:8px}
.timer{font-variant-numeric:tabular-nums}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
a{color:var(--fk-accent)}
hr{border:none;border-top:1px solid var(--fk-line);margin-top:18px}
@media (max-width:380px){.fk{padding:14px;font-size:14px}.amount{font-size:24px}.steps{gap:4px}.step{font-size:11px}}
`;
