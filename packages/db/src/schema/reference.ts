import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const occupations = pgTable(
  "occupations",
  {
    id: id(),
    name: text("name").notNull(),
    /** Display order: the starter list's order, then new entries at the end. */
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("occupations_name_key").on(t.name)],
);

export const annualIncomes = pgTable(
  "annual_incomes",
  {
    id: id(),
    label: text("label").notNull(),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("annual_incomes_label_key").on(t.label)],
);
