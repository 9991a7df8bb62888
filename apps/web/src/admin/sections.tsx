import type { ComponentType } from "react";

/**
 * The admin sections (spec §2 admin shell). A section appears in the menu only once its domain is
 * built; `inMenu: false` marks the routes the spec keeps out of the menu.
 */
export interface AdminSection {
  path: string;
  label: string;
  component: ComponentType;
  inMenu: boolean;
  group?: "messages";
}

export const ADMIN_SECTIONS: AdminSection[] = [];

/** The default section: /admin and unknown admin paths show user management (spec §2). */
export const DEFAULT_ADMIN_PATH = "user-management";
