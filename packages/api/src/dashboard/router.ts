import { adminProcedure, router } from "../trpc";
import { dashboardSummary, waitingWork } from "./figures";

/** The operator's dashboard (decision 0036). */
export const adminDashboardRouter = router({
  /** Every figure of the dashboard, as of now (Japanese days). */
  summary: adminProcedure.query(({ ctx }) => dashboardSummary(ctx.db)),
  /** The work waiting only: the admin menu's counts, polled every 30 s by the web app. */
  waiting: adminProcedure.query(({ ctx }) => waitingWork(ctx.db)),
});
