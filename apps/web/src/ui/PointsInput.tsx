import { NumberInput, type NumberInputProps } from "@mantine/core";

/** A balance in points: whole numbers from 0, shown with "pt" (as formatPoints). The server checks the same. */
export function PointsInput(props: NumberInputProps) {
  return <NumberInput min={0} allowDecimal={false} allowNegative={false} suffix="pt" {...props} />;
}
