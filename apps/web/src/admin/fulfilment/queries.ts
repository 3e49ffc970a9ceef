import type { ShipmentShip } from '@numisma/contracts/delivery'
import type { FulfilmentShipmentsQuery } from '@numisma/contracts/staff-fulfilment'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  cancelBooking,
  completeBooking,
  getCounterDay,
  getPickList,
  getShipments,
  handOverPickup,
  type PickListRequest,
  shipShipment,
} from './api'

const FULFILMENT_KEY = ['staff', 'fulfilment'] as const
const SHIPMENTS_KEY = [...FULFILMENT_KEY, 'shipments'] as const
const DAY_KEY = [...FULFILMENT_KEY, 'day'] as const
const PICK_LIST_KEY = [...FULFILMENT_KEY, 'pick-list'] as const

export function useShipments(status: FulfilmentShipmentsQuery['status']) {
  return useQuery({
    queryKey: [...SHIPMENTS_KEY, status],
    queryFn: () => getShipments(status),
  })
}

export function useShip() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, details }: { id: number; details: ShipmentShip }) =>
      shipShipment(id, details),
    // It leaves 待发货 for 已发货, and off any pick list of waiting shipments.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FULFILMENT_KEY }),
  })
}

export function useCounterDay(date: string) {
  return useQuery({ queryKey: [...DAY_KEY, date], queryFn: () => getCounterDay(date) })
}

export function useHandOver() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: handOverPickup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FULFILMENT_KEY }),
  })
}

export function useCompleteBooking() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => completeBooking(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FULFILMENT_KEY }),
  })
}

export function useCancelBooking() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: cancelBooking,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FULFILMENT_KEY }),
  })
}

export function usePickList(request: PickListRequest | null) {
  return useQuery({
    queryKey: [...PICK_LIST_KEY, request],
    queryFn: () => getPickList(request!),
    enabled: request !== null,
  })
}
