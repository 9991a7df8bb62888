import { annualIncomes, occupations } from "@enmusubi/db";
import { yearsBefore } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, useTestApi } from "./helpers";

/**
 * A search without a keyword runs a statement prepared once per shape (which filters are given),
 * with placeholders for the values (members/search.ts, decision 0037). This file's database holds only
 * its own members, so every filter is checked without a keyword: the same shape asked again with
 * other values answers for those values (nothing of the first call is baked in), and a keyword
 * search (built per call) agrees with the prepared one.
 */
const api = useTestApi();

let searcher: TestUser;
let o: [string, string];
let inc: [string, string];
const born = (age: number) => yearsBefore(new Date(), age);
interface Made {
  id: string;
  occupationId: string;
  annualIncomeId: string;
  address: string;
  photo: boolean;
  age: number;
}
const made: Made[] = [];

beforeAll(async () => {
  o = (await api.database.db.select({ id: occupations.id }).from(occupations)).map((r) => r.id).slice(0, 2) as [
    string,
    string,
  ];
  inc = (await api.database.db.select({ id: annualIncomes.id }).from(annualIncomes)).map((r) => r.id).slice(0, 2) as [
    string,
    string,
  ];
  searcher = await api.createUser({ gender: "male" });
  const prefectures = ["東京都", "大阪府", "北海道"];
  for (let i = 0; i < 12; i++) {
    const m = {
      occupationId: o[i % 2] as string,
      annualIncomeId: inc[Math.floor(i / 2) % 2] as string,
      address: prefectures[i % 3] as string,
      photo: i % 4 === 0,
      age: 20 + i * 3,
    };
    const user = await api.createUser({
      gender: "female",
      name: `形${i}`,
      occupationId: m.occupationId,
      annualIncomeId: m.annualIncomeId,
      address: m.address,
      photoLink: m.photo ? `/uploads/photos/p${i}.jpg` : null,
      // A day past the birthday: the age is exact whatever the hour.
      birthday: (() => {
        const d = new Date(`${born(m.age)}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() - 1);
        return d.toISOString().slice(0, 10);
      })(),
    });
    made.push({ id: user.id, ...m });
  }
  // A man: never listed to a man searching with excludeSameSex (the default).
  await api.createUser({ gender: "male", name: "形男" });
});

type Input = Parameters<ReturnType<typeof api.caller>["members"]["search"]>[0];
const ids = async (input: Input) =>
  (await api.caller(searcher).members.search({ limit: 50, ...input })).profiles.map((p) => p.id).sort();
const expected = (keep: (m: Made) => boolean) =>
  made
    .filter(keep)
    .map((m) => m.id)
    .sort();

describe("profile search, prepared per shape", () => {
  it("answers each call with its own values, shape after shape", async () => {
    const cases: Array<[Input, (m: Made) => boolean]> = [
      [{}, () => true],
      [{ occupationId: o[0] }, (m) => m.occupationId === o[0]],
      [{ occupationId: o[1] }, (m) => m.occupationId === o[1]],
      [{ annualIncomeId: inc[1] }, (m) => m.annualIncomeId === inc[1]],
      [{ annualIncomeId: inc[0] }, (m) => m.annualIncomeId === inc[0]],
      [{ prefecture: "大阪府" }, (m) => m.address === "大阪府"],
      [{ prefecture: "北海道" }, (m) => m.address === "北海道"],
      [{ hasPhoto: true }, (m) => m.photo],
      [{ hasPhoto: false }, (m) => !m.photo],
      [{ ageMin: 30 }, (m) => m.age >= 30],
      [{ ageMin: 40 }, (m) => m.age >= 40],
      [{ ageMax: 29 }, (m) => m.age <= 29],
      [{ ageMax: 41 }, (m) => m.age <= 41],
      [{ ageMin: 26, ageMax: 38 }, (m) => m.age >= 26 && m.age <= 38],
      [{ ageMin: 29, ageMax: 50 }, (m) => m.age >= 29 && m.age <= 50],
      [
        { occupationId: o[0], annualIncomeId: inc[0], prefecture: "東京都" },
        (m) => m.occupationId === o[0] && m.annualIncomeId === inc[0] && m.address === "東京都",
      ],
      [
        { occupationId: o[1], annualIncomeId: inc[1], prefecture: "北海道" },
        (m) => m.occupationId === o[1] && m.annualIncomeId === inc[1] && m.address === "北海道",
      ],
    ];
    // Twice over: the second round runs statements prepared by the first.
    for (let round = 0; round < 2; round++) {
      for (const [input, keep] of cases) expect(await ids(input), JSON.stringify(input)).toEqual(expected(keep));
    }
    const men = await ids({ excludeSameSex: false });
    expect(men).toHaveLength(made.length + 1);
  });

  it("pages with an offset and counts past the last page", async () => {
    const first = await api.caller(searcher).members.search({ limit: 5 });
    const second = await api.caller(searcher).members.search({ limit: 5, page: 2 });
    const third = await api.caller(searcher).members.search({ limit: 5, page: 3 });
    const all = [...first.profiles, ...second.profiles, ...third.profiles].map((p) => p.id);
    expect(new Set(all).size).toBe(12);
    expect(first).toMatchObject({ total: 12, totalPages: 3 });
    expect(await api.caller(searcher).members.search({ limit: 5, page: 4 })).toMatchObject({
      profiles: [],
      total: 12,
      totalPages: 3,
    });
    // The same shape for another searcher: their own favourites, never the first one's.
    const other = await api.createUser({ gender: "male" });
    await api.caller(other).members.addFavorite({ id: made[0]?.id as string });
    const theirs = await api.caller(other).members.search({ limit: 50 });
    expect(theirs.profiles.filter((p) => p.isFavorite).map((p) => p.id)).toEqual([made[0]?.id]);
    const mine = await api.caller(searcher).members.search({ limit: 50 });
    expect(mine.profiles.filter((p) => p.isFavorite)).toEqual([]);
  });

  it("agrees with the keyword search (built per call)", async () => {
    const prepared = await ids({ occupationId: o[0], ageMin: 25 });
    const keyworded = await ids({ occupationId: o[0], ageMin: 25, keyword: "形" });
    expect(prepared).toEqual(keyworded);
  });
});
