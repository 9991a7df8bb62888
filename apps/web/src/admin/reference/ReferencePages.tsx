import { MSG } from "@enmusubi/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";
import { ReferenceListPage } from "./ReferenceListPage";

/** /admin/occupation-management (職業管理, in the admin menu). */
export function OccupationManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.reference.occupations.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.reference.occupations.list.queryKey() });
  const create = useMutation(trpc.reference.occupations.create.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.reference.occupations.delete.mutationOptions({ onSuccess: refresh }));
  return (
    <ReferenceListPage
      title="職業管理"
      itemName="職業"
      inputLabel="職業名"
      placeholder="例: 会社員"
      messages={{
        empty: MSG.occupationRequired,
        added: MSG.occupationAdded,
        deleted: MSG.occupationDeleted,
        addFailed: MSG.occupationAddFailed,
        deleteFailed: MSG.occupationDeleteFailed,
      }}
      items={list.data?.map((o) => ({ id: o.id, label: o.name }))}
      loadError={list.isError ? MSG.occupationFetchFailed : null}
      onAdd={async (name) => void (await create.mutateAsync({ name }))}
      onDelete={async (id) => void (await remove.mutateAsync({ id }))}
    />
  );
}

/** /admin/annual-income (年収管理, in the admin menu). */
export function AnnualIncomeManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.reference.annualIncomes.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.reference.annualIncomes.list.queryKey() });
  const create = useMutation(trpc.reference.annualIncomes.create.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.reference.annualIncomes.delete.mutationOptions({ onSuccess: refresh }));
  return (
    <ReferenceListPage
      title="年収管理"
      itemName="年収範囲"
      inputLabel="年収範囲"
      placeholder="例: 400万円〜600万円"
      messages={{
        empty: MSG.annualIncomeRequired,
        added: MSG.annualIncomeAdded,
        deleted: MSG.annualIncomeDeleted,
        addFailed: MSG.annualIncomeAddFailed,
        deleteFailed: MSG.annualIncomeDeleteFailed,
      }}
      items={list.data?.map((i) => ({ id: i.id, label: i.label }))}
      loadError={list.isError ? MSG.annualIncomeFetchFailed : null}
      onAdd={async (label) => void (await create.mutateAsync({ label }))}
      onDelete={async (id) => void (await remove.mutateAsync({ id }))}
    />
  );
}
