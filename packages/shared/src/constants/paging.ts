/** Page sizes and the pager's shape. */

export const TRANSACTIONS_PAGE_SIZE = 20;
export const ADMIN_MESSAGE_PAGE_SIZES = [25, 50, 100, 200] as const;
export const ADMIN_MESSAGE_PAGE_SIZE_DEFAULT = 50;
export const PAGE_BUTTON_WINDOW = 5;
export const MESSAGE_HISTORY_COUNT = 5;
export const BOARD_PAGE_SIZE = 10;
