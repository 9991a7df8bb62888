import { Stack, Text } from "@mantine/core";
import { code128Bars } from "./code128";

/** Quiet zone on each side, in modules (the symbology asks for at least 10). */
const QUIET = 10;

/**
 * A CODE128 barcode as inline SVG, for the convenience-store counter to scan (SmartPit). The
 * image is named with the code it carries, and the code is printed under it for typing.
 */
export function Barcode({
  value,
  label = "支払用バーコード",
  height = 72,
  moduleWidth = 2,
}: {
  value: string;
  label?: string;
  height?: number;
  moduleWidth?: number;
}) {
  const { bars, modules } = code128Bars(value);
  const width = modules + QUIET * 2;
  return (
    <Stack gap={4} align="center" data-testid="barcode">
      <svg
        role="img"
        aria-label={`${label}：${value}`}
        viewBox={`0 0 ${width} ${height}`}
        width={width * moduleWidth}
        height={height}
        preserveAspectRatio="none"
        shapeRendering="crispEdges"
        data-graphic="barcode"
        style={{ maxWidth: "100%", height, background: "#fff" }}
      >
        <rect x={0} y={0} width={width} height={height} fill="#fff" />
        {bars.map((bar) => (
          <rect key={bar.x} data-bar="" x={bar.x + QUIET} y={0} width={bar.width} height={height} fill="#000" />
        ))}
      </svg>
      <Text ff="monospace" size="sm" aria-hidden>
        {value}
      </Text>
    </Stack>
  );
}
