import {
  AddressIdSchema,
  AddressInputSchema,
  AddressSchema,
  CityQuerySchema,
  ProvinceQuerySchema,
  RegionSchema,
} from '@numisma/contracts/address'
import { dataSchema, IdParamsSchema } from '@numisma/contracts/api'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { localeOf } from '../../platform/error-handler'
import { requireUser } from '../../platform/request-signing'
import type { AddressService } from './service'

export interface AddressRouteOptions {
  service: AddressService
}

/** Spec §7 "Addresses" and the region pickers of DESIGN §9 "Delivery". */
export const addressRoutes: FastifyPluginAsyncZod<AddressRouteOptions> = async (
  app,
  { service },
) => {
  const tags = ['addresses']
  const regions = dataSchema(z.array(RegionSchema))

  app.get(
    '/pub/@country',
    {
      schema: {
        tags,
        summary: 'Countries, China (CN) first, names in the caller’s language',
        response: { 200: regions },
      },
    },
    (request) => ({ data: service.countries(localeOf(request)) }),
  )

  app.get(
    '/pub/@province',
    {
      schema: {
        tags,
        summary: 'A country’s provinces (China’s divisions; none elsewhere)',
        querystring: ProvinceQuerySchema,
        response: { 200: regions },
      },
    },
    (request) => ({ data: service.provinces(request.query.countryId) }),
  )

  app.get(
    '/pub/@city',
    {
      schema: {
        tags,
        summary: 'A province’s city level (districts for Beijing, Shanghai, Tianjin, Chongqing)',
        querystring: CityQuerySchema,
        response: { 200: regions },
      },
    },
    (request) => ({ data: service.cities(request.query.provinceId) }),
  )

  app.get(
    '/user/address',
    {
      schema: {
        tags,
        summary: 'The caller’s addresses, the default first',
        response: { 200: dataSchema(z.array(AddressSchema)) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.list(userId, localeOf(request)) }
    },
  )

  app.get(
    '/user/address/@getaddress/:id',
    {
      schema: {
        tags,
        summary: 'One of the caller’s addresses (another user’s is NOT_FOUND)',
        params: IdParamsSchema,
        response: { 200: dataSchema(AddressSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.get(userId, request.params.id, localeOf(request)) }
    },
  )

  app.post(
    '/user/address',
    {
      schema: {
        tags,
        summary: 'A new address; the first is the default (ADDRESS_LIMIT, ADDRESS_*_INVALID)',
        body: AddressInputSchema,
        response: { 200: dataSchema(AddressSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.create(userId, request.body, localeOf(request)) }
    },
  )

  app.post(
    '/user/address/:id',
    {
      schema: {
        tags,
        summary: 'Changes an address; isDefault true makes it the default',
        params: IdParamsSchema,
        body: AddressInputSchema,
        response: { 200: dataSchema(AddressSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      const { id } = request.params
      return { data: await service.update(userId, id, request.body, localeOf(request)) }
    },
  )

  app.delete(
    '/user/address/:id',
    {
      schema: {
        tags,
        summary: 'Deletes an address; the newest remaining one becomes the default',
        params: IdParamsSchema,
        response: { 200: dataSchema(AddressIdSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.remove(userId, request.params.id) }
    },
  )

  app.post(
    '/user/address/@defaddress/:id',
    {
      schema: {
        tags,
        summary: 'Makes an address the default, clearing the old one',
        params: IdParamsSchema,
        response: { 200: dataSchema(AddressSchema) },
      },
    },
    async (request) => {
      const { userId } = requireUser(request)
      return { data: await service.setDefault(userId, request.params.id, localeOf(request)) }
    },
  )
}
