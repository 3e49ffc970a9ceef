import type { AuditQuery, StaffMemberCreate, StaffMemberUpdate } from '@numisma/contracts/staff'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { SESSION_KEY } from '../staff-queries'
import { createStaffMember, getAudit, getStaffMembers, updateStaffMember } from './api'

const MEMBERS_KEY = ['staff', 'system', 'members'] as const
const AUDIT_KEY = ['staff', 'system', 'audit'] as const
export const AUDIT_PAGE_SIZE = 50

export function useStaffMembers() {
  return useQuery({ queryKey: MEMBERS_KEY, queryFn: getStaffMembers })
}

export function useCreateStaffMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: StaffMemberCreate) => createStaffMember(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEMBERS_KEY }),
  })
}

export function useUpdateStaffMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: StaffMemberUpdate }) =>
      updateStaffMember(id, change),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: MEMBERS_KEY })
      // Our own roles may have changed too.
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY })
    },
  })
}

export type AuditFilter = Pick<AuditQuery, 'staffId' | 'route' | 'target'>

/** The log newest first, a page at a time (older pages on "load more"). */
export function useAudit(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: [...AUDIT_KEY, filter],
    queryFn: ({ pageParam }) => getAudit({ ...filter, before: pageParam, limit: AUDIT_PAGE_SIZE }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) =>
      last.length < AUDIT_PAGE_SIZE ? undefined : last[last.length - 1]?.id,
  })
}
