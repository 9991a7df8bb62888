import { useEffect, useRef } from "react";

const HEIGHT = 180;
const BAR_GAP = 6;

export interface Bar {
  key: string;
  /** Under the bar (short enough for 375 px: 11/23). */
  label: string;
  value: number;
  /** The bar's tooltip: its exact figure. */
  title: string;
}

/**
 * Bars as an SVG (the app has no chart library: the sales chart's drawing, shared by the
 * dashboard's charts). Decorative for screen readers beyond its label: every chart is shown with
 * its figures in a table.
 */
export function BarChart({
  bars,
  label,
  testId,
  slot = 40,
  latestInView = false,
}: {
  bars: Bar[];
  label: string;
  testId?: string;
  slot?: number;
  /** Scrolled to the last (newest) bars when wider than the screen. */
  latestInView?: boolean;
}) {
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    if (latestInView && region.current) region.current.scrollLeft = region.current.scrollWidth;
  }, [latestInView]);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = Math.max(bars.length * slot, 320);
  return (
    // Wider than a phone: the bars scroll sideways, so the region takes the keyboard's focus.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
    <section ref={region} style={{ overflowX: "auto" }} tabIndex={0} aria-label={`${label}（横にスクロールできます）`}>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${HEIGHT + 24}`}
        width={width}
        height={HEIGHT + 24}
        data-testid={testId}
        data-graphic="chart"
      >
        <line x1={0} y1={HEIGHT} x2={width} y2={HEIGHT} stroke="#868e96" strokeWidth={1} />
        {bars.map((bar, i) => {
          const h = Math.round((bar.value / max) * (HEIGHT - 8));
          const x = i * slot + BAR_GAP / 2;
          return (
            <g key={bar.key} data-bar="">
              <rect x={x} y={HEIGHT - h} width={slot - BAR_GAP} height={h} fill="#c2255c">
                <title>{bar.title}</title>
              </rect>
              <text x={x + (slot - BAR_GAP) / 2} y={HEIGHT + 16} textAnchor="middle" fontSize={10} fill="#495057">
                {bar.label}
              </text>
            </g>
          );
        })}
      </svg>
    </section>
  );
}
