'use client';

/**
 * "Download SVG": the chart drawn just before the button (its `chartTestId` names the button) as drawn (recharts' <svg>), serialised in the browser into a
 * standalone SVG file with a white background. The legend is HTML beside the drawing and is not in the file.
 */
export function SvgDownload({ chartTestId, fileName }: { chartTestId: string; fileName: string }) {
  function download(button: HTMLButtonElement) {
    // the chart drawn just before this button (several charts may share a test id on one page)
    // the drawing, not a legend icon (recharts draws each legend icon as a small svg.recharts-surface too)
    const svgs = [...(button.previousElementSibling?.querySelectorAll('svg.recharts-surface') ?? [])].filter(
      (x): x is SVGSVGElement => x instanceof SVGSVGElement && !x.closest('.recharts-legend-wrapper'),
    );
    const area = (x: SVGSVGElement) => x.getBoundingClientRect().width * x.getBoundingClientRect().height;
    const svg = svgs.sort((a, b) => area(b) - area(a))[0];
    if (!svg) return;
    const copy = svg.cloneNode(true) as SVGSVGElement;
    const { width, height } = svg.getBoundingClientRect();
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    copy.setAttribute('width', String(Math.round(width)));
    copy.setAttribute('height', String(Math.round(height)));
    copy.style.fontFamily = getComputedStyle(svg).fontFamily;
    const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    bg.setAttribute('width', '100%');
    bg.setAttribute('height', '100%');
    bg.setAttribute('fill', '#ffffff');
    copy.insertBefore(bg, copy.firstChild);
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName.endsWith('.svg') ? fileName : `${fileName}.svg`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  }
  return (
    <button type="button" className="small" onClick={(e) => download(e.currentTarget)} data-testid={`${chartTestId}-svg`}>
      Download SVG
    </button>
  );
}
