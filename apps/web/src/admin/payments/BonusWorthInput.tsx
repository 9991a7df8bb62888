import { Group, NumberInput, SegmentedControl } from "@mantine/core";
import { ADMIN_BONUS_TEXT as T } from "./bonus-text";

/** A bonus's worth as the form holds it: a rate or fixed points, the number as typed. */
export interface WorthDraft {
  kind: "rate" | "fixed";
  value: number | string;
}

/** The draft as the shared schema takes it: exactly one of ratePercent / fixedPoints. */
export function worthOf(draft: WorthDraft): { ratePercent: number | null; fixedPoints: number | null } {
  const n = typeof draft.value === "number" ? draft.value : Number.NaN;
  return draft.kind === "rate" ? { ratePercent: n, fixedPoints: null } : { ratePercent: null, fixedPoints: n };
}

/** A rate (% of the points bought) or fixed points, with the field's error. */
export function BonusWorthInput({
  value,
  onChange,
  error,
  label,
}: {
  value: WorthDraft;
  onChange(next: WorthDraft): void;
  error?: string;
  /** Names the pair for assistive technology (which bonus it is). */
  label: string;
}) {
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" role="group" aria-label={label}>
      <SegmentedControl
        size="xs"
        aria-label={`${label}の${T.worthKind}`}
        value={value.kind}
        onChange={(kind) => onChange({ ...value, kind: kind as WorthDraft["kind"] })}
        data={[
          { value: "rate", label: T.rate },
          { value: "fixed", label: T.fixed },
        ]}
      />
      <NumberInput
        label={value.kind === "rate" ? T.rateValue : T.fixedValue}
        aria-label={`${label}の${value.kind === "rate" ? T.rateValue : T.fixedValue}`}
        w={150}
        min={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        thousandSeparator=","
        value={value.value}
        onChange={(v) => onChange({ ...value, value: v })}
        error={error}
      />
    </Group>
  );
}
