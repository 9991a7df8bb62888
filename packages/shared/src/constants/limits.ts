/** Sizes and lengths the product enforces: passwords, images, titles, texts. */

export const PASSWORD_MIN_LENGTH = 6;

export const IMAGE_MAX_SIDE = 2048;
export const IMAGE_JPEG_QUALITY = 0.8;
/** The card thumbnail of every photo (public); the full-size image is served signed only (decision 0028). */
export const THUMBNAIL_MAX_SIDE = 320;
/** Largest upload the server accepts before decoding (the browser already downscales). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** How long a signed full-size photo URL is honoured, in seconds (decision 0028). */
export const PHOTO_URL_TTL_SECONDS = 300;

/**
 * A member's message not yet opened (paid, unread_mail_view) is listed with at most this many of its
 * first characters (code points), never more than half of it, on one line, then "…" (decision 0027).
 */
export const MESSAGE_PREVIEW_CHARS = 20;

export const POST_TITLE_MAX = 100;
export const INQUIRY_TITLE_MAX = 100;
export const INQUIRY_MESSAGE_MAX = 1000;
