import { z } from "zod";

// Messages zod writes itself (wrong types, missing fields) are in Japanese too, on both sides.
z.config(z.locales.ja());
