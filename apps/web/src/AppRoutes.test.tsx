import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { withProviders } from "./AppRoutes";

const wrap = (ui: React.ReactNode) => <MantineProvider>{ui}</MantineProvider>;

describe("a screen loaded with its route (withProviders)", () => {
  it("draws the loader, then the screen once its chunks have run, and at once on the next visit", async () => {
    let arrive: (module: { default: ComponentType }) => void = () => {};
    const Screen = withProviders(
      () =>
        new Promise((resolve) => {
          arrive = resolve;
        }),
    );
    const first = render(wrap(<Screen />));
    expect(screen.getByText("読み込み中...")).toBeInTheDocument();
    arrive({ default: () => <p>画面です</p> });
    expect(await screen.findByText("画面です")).toBeInTheDocument();
    expect(screen.queryByText("読み込み中...")).not.toBeInTheDocument();
    first.unmount();
    // Loaded once: drawn in the first render, without a loader.
    render(wrap(<Screen />));
    expect(screen.getByText("画面です")).toBeInTheDocument();
    expect(screen.queryByText("読み込み中...")).not.toBeInTheDocument();
  });

  it("says so when its chunks cannot be loaded", async () => {
    const Screen = withProviders(() => Promise.reject(new Error("offline")));
    render(wrap(<Screen />));
    expect(await screen.findByText("画面を読み込めませんでした。再読み込みしてください。")).toBeInTheDocument();
  });
});
