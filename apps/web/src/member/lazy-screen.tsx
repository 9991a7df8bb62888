import { type ComponentType, lazy } from "react";

/**
 * A member screen or dialog loaded when first shown, with what the shell's first page does without
 * (layout/ShellProviders: the date pickers' provider, the confirmation dialogs' provider). Each
 * screen brings the styles of the Mantine components it draws (vite/mantine-styles.ts), so the
 * first page after login fetches and parses only the dashboard's (decision 0011).
 *
 * The providers' import is started first: the stylesheets of its dialogs are then inserted before
 * the screen's own (Vite adds a chunk's styles when its import starts), so a screen's styles still
 * win over Mantine's.
 */
export function lazyScreen<K extends string, P extends object = object>(
  load: () => Promise<{ [key in K]: ComponentType<P> }>,
  name: K,
): ComponentType<P> & { preload(): Promise<unknown> } {
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= (async () => {
      const providers = import("../layout/ShellProviders");
      const [{ ShellProviders }, module] = await Promise.all([providers, load()]);
      const Screen: ComponentType<P> = module[name];
      return (props: P) => (
        <ShellProviders>
          <Screen {...props} />
        </ShellProviders>
      );
    })();
    return loading;
  };
  return Object.assign(
    lazy(async () => ({ default: await preload() })),
    { preload },
  );
}
