/** Points: validity, what a new member starts with, the windows in which a paid view is free again. */

export const POINT_VALIDITY_YEARS = 3;
/** Free points (the sign-up bonus, an administrator's grant) are valid this many days (decision 0008). */
export const FREE_POINT_VALIDITY_DAYS = 180;
/** A notice mail goes this many days before a lot's points expire, once per lot (decision 0034). */
export const POINT_EXPIRY_NOTICE_DAYS = 7;

export const NEW_USER_DEFAULTS = { points: 100, sendPoints: 20, role: "user" } as const;
/** Viewing the same profile again within this many hours of the last paid view is free. */
export const PROFILE_VIEW_FREE_HOURS = 24;
/** Enlarging the same member's photo again within this many hours of the last paid enlargement is free. */
export const PHOTO_VIEW_FREE_HOURS = 24;
/** One paid board entry (message_board_view) opens the board this long: paging and searching inside are free. */
export const BOARD_ENTRY_MINUTES = 30;
