import qrcode from 'qrcode-generator';

/** An SVG path of the dark modules: no innerHTML, so nothing of the data can become markup. */
function modulesPath(data: string): { size: number; d: string } {
  const qr = qrcode(0, 'M');
  qr.addData(data);
  qr.make();
  const size = qr.getModuleCount();
  let d = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) if (qr.isDark(row, col)) d += `M${col} ${row}h1v1h-1z`;
  }
  return { size, d };
}

export function QrCode({ data, label }: { data: string; label: string }) {
  const { size, d } = modulesPath(data);
  const margin = 2;
  return (
    <svg role="img" aria-label={label} viewBox={`${-margin} ${-margin} ${size + margin * 2} ${size + margin * 2}`} shape-rendering="crispEdges">
      <rect x={-margin} y={-margin} width={size + margin * 2} height={size + margin * 2} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
