/** How the screens behave: timings, breakpoints, folding of long texts, the emoji picker. */

/** What members see in place of a withdrawn member's name. */
export const WITHDRAWN_MEMBER_NAME = "退会したユーザー";

export const SIGNUP_REDIRECT_MS = 3000;
export const MODAL_CLOSE_MS = 300;
export const BANNER_MS = 3000;
export const SCHEDULER_POLL_MS = 5000;
export const SCHEDULED_STORAGE_KEY = "scheduled_messages_v1";

export const BREAKPOINTS = {
  loginNarrow: 320,
  signupLanding: 768,
  adminMenuCollapseBelow: 768,
  memberMenuDrawerAtOrBelow: 768,
} as const;

export const LONG_TEXT_COLLAPSE_CHARS = 100;
export const POST_CONTENT_FOLD_CHARS = 150;
export const EMOJI_PICKER_SIZES = { large: 60, favourites: 20, board: 30 } as const;
export const EMOJI_PICKER_COLUMNS = 10;
