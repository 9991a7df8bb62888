import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { clearSession } from "./session";

/** Logout (spec §2): remove the stored token and role, forget cached data, go to /login. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    clearSession();
    queryClient.clear();
    navigate("/login", { replace: true });
  };
}
