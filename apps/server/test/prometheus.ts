/** A small reader of the Prometheus text exposition format (version 0.0.4), for the tests. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/g;

/** Families by name; throws on a line that is not a comment, a sample or blank. */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) {
      found = { name, type: "untyped", help: "", samples: [] };
      families.set(name, found);
    }
    return found;
  };
  const owner = (sample: string) => {
    for (const suffix of ["_bucket", "_sum", "_count", ""]) {
      const base = suffix && sample.endsWith(suffix) ? sample.slice(0, -suffix.length) : sample;
      if (families.has(base)) return families.get(base) as Family;
    }
    return family(sample);
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const f = family(meta[2] as string);
      if (meta[1] === "TYPE") f.type = meta[3] as string;
      else f.help = meta[3] as string;
      continue;
    }
    if (line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const rest = (match[2] ?? "").replace(LABEL, (_all, key: string, value: string) => {
      labels[key] = value.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      return "";
    });
    if (rest.trim() !== "") throw new Error(`unreadable labels: ${line}`);
    const raw = match[3] as string;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== "NaN") throw new Error(`not a number: ${line}`);
    owner(match[1] as string).samples.push({ name: match[1] as string, labels, value });
  }
  return families;
}
