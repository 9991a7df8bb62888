import { BOARD_REACTIONS } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { genderEnum, users } from "./users";

export const boardPosts = pgTable(
  "board_posts",
  {
    id: id(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * Title and content as the search compares them: NFKC, lower case, white space runs as one
     * space, joined by U+001F (a character no keyword holds). Written with the post (trigger,
     * migration 0018); searched as packages/api/src/search/grams.ts says.
     */
    searchText: text("search_text").notNull().default(""),
    /**
     * The author's gender, null for the operator's posts (an administrator's): the board's
     * other-gender list reads it (docs/decisions/0040). Kept by triggers from users (any writer;
     * drizzle/0042_board_post_author_gender_triggers.sql); never written by the services.
     */
    authorGender: genderEnum("author_gender"),
  },
  (t) => [
    index("board_posts_created_idx").on(t.createdAt),
    index("board_posts_author_created_idx").on(t.authorId, t.createdAt),
    // The board's newest-first page (ascending index read backwards; see columns.ts).
    index("board_posts_live_created_idx").on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // … as a man and as a woman see it by default: the other gender's posts and the operator's
    // (decision 0040). The predicates are literals the walk repeats (board/listing.ts), so the
    // planner can use them.
    index("board_posts_live_not_male_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null and ${t.authorGender} is distinct from 'male'`),
    index("board_posts_live_not_female_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null and ${t.authorGender} is distinct from 'female'`),
  ],
);

/**
 * Japanese substring search (docs/decisions/0007): every distinct 1- and 2-character gram of a live
 * post's search text, with the post's time, so one gram's posts are read newest first from the
 * primary key alone. Kept by triggers on board_posts in the post's own transaction (any writer).
 */
export const boardPostGrams = pgTable(
  "board_post_grams",
  {
    gram: text("gram").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    // No foreign key: the rows are kept by the board search triggers (drizzle/0018_board_search_triggers.sql), which remove them by the
    // primary key; a cascade would scan the whole table for each deleted post.
    postId: uuid("post_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.gram, t.createdAt, t.postId] })],
);

/** A member's paid entry to the board: viewing is free until `openUntil` (BOARD_ENTRY_MINUTES). */
export const boardEntries = pgTable("board_entries", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  openUntil: timestamp("open_until", { withTimezone: true }).notNull(),
  enteredAt: timestamp("entered_at", { withTimezone: true }).notNull().defaultNow(),
});

export const reactionEnum = pgEnum("board_reaction", BOARD_REACTIONS);

/** One reaction per member and post: like and dislike exclude each other. */
export const boardReactions = pgTable(
  "board_reactions",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => boardPosts.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: reactionEnum("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const boardReads = pgTable(
  "board_reads",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => boardPosts.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);
