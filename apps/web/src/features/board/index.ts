export { BoardPager } from "./BoardPager";
export { type NewPost, NewPostDialog } from "./NewPostDialog";
export { PostCard, PostCounts } from "./PostCard";
export { foldText, PostContent, visibleLength } from "./PostContent";
export { ReactionButtons } from "./ReactionButtons";
export { BOARD_TEXT } from "./text";
export {
  authorLine,
  authorName,
  type BoardAuthor,
  type BoardPagination,
  type BoardPostView,
  OPERATOR_NAME,
  type OwnBoardPost,
  totalLabel,
  UNSET_NAME,
} from "./types";
export { usePostActions } from "./usePostActions";
