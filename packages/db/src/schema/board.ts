import { index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

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
  },
  (t) => [
    index("board_posts_created_idx").on(t.createdAt),
    index("board_posts_author_created_idx").on(t.authorId, t.createdAt),
  ],
);

export const reactionEnum = pgEnum("board_reaction", ["like", "dislike"]);

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
