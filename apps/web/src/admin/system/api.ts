import {
  AuditEntrySchema,
  StaffMemberSchema,
  type AuditEntry,
  type AuditQuery,
  type StaffMember,
  type StaffMemberCreate,
  type StaffMemberUpdate,
} from '@numisma/contracts/staff'
import { z } from 'zod'
import { staffRequest } from '../staff-api'

export function getStaffMembers(): Promise<StaffMember[]> {
  return staffRequest('/staff-members', z.array(StaffMemberSchema))
}

export function createStaffMember(input: StaffMemberCreate): Promise<StaffMember> {
  return staffRequest('/staff-members', StaffMemberSchema, { method: 'POST', body: input })
}

export function updateStaffMember(id: number, change: StaffMemberUpdate): Promise<StaffMember> {
  return staffRequest(`/staff-members/${id}`, StaffMemberSchema, { method: 'POST', body: change })
}

export function getAudit(query: Partial<AuditQuery>): Promise<AuditEntry[]> {
  return staffRequest('/audit', z.array(AuditEntrySchema), { query })
}
