/**
 * What each changing operator call is called in the audit log, in the staff's words. Keyed by
 * `METHOD route-pattern` as the guard records it; the access test checks that every changing
 * staff route has its name here.
 */
export const STAFF_ACTION_NAMES: Record<string, string> = {
  'POST /svc/main/admin/logout': '退出登录',
  'POST /svc/main/admin/staff-members': '新建员工',
  'POST /svc/main/admin/staff-members/:id': '修改员工账号',
  'POST /svc/main/admin/specials': '新建专场',
  'POST /svc/main/admin/lots': '新建拍品',
  'POST /svc/main/admin/mall-items': '新建商城商品',
  'POST /svc/main/admin/coupons': '新建优惠券',
  'POST /svc/main/admin/users/:userId/deposit': '入账保证金',
  'POST /svc/main/admin/users/:userId/quota': '入账保证金（旧接口）',
  'POST /svc/main/admin/users/:userId/balance': '入账余额（柜台现金）',
  'POST /svc/main/admin/remittances/:id/confirm': '确认汇款',
  'POST /svc/main/admin/remittances/:id/reject': '驳回汇款',
  'POST /svc/main/admin/withdrawals/:id/pay': '支付提现',
  'POST /svc/main/admin/withdrawals/:id/refuse': '拒绝提现',
  'POST /svc/main/admin/orders/:id/forfeit': '扣除逾期保证金',
  'POST /svc/main/admin/bookings/:id/complete': '柜台收款交货',
  'POST /svc/main/admin/bookings/:id/cancel': '取消柜台预约',
  'POST /svc/main/admin/shipments/:id/ship': '发货',
  'POST /svc/main/admin/shipments/:id/complete': '自提交货',
  'POST /svc/main/admin/chat/conversations/:id/messages': '客服回复',
  'POST /svc/main/admin/chat/conversations/:id/read': '标记会话已读',
  // Issue 12 · console areas add theirs below.
  'POST /svc/main/admin/money/users/:userId/adjustments': '调整用户余额/保证金',
  'POST /svc/main/admin/money/orders/:orderId/refund': '订单退款',
  'POST /svc/main/admin/sales/lots/:id/relist': '重新上拍',
  // Shop settings (cataloguers).
  'PUT /svc/main/admin/mall-items/:id': '编辑商城商品',
  'POST /svc/main/admin/mall-items/:id/stock': '调整商品库存',
  'PUT /svc/main/admin/mall-items/:id/sale': '商品上架/下架',
  'POST /svc/main/admin/categories': '新建拍品分类',
  'PUT /svc/main/admin/categories/order': '调整拍品分类顺序',
  'PUT /svc/main/admin/categories/:id': '修改拍品分类',
  'DELETE /svc/main/admin/categories/:id': '删除拍品分类',
  'POST /svc/main/admin/mall-categories': '新建商城分类',
  'PUT /svc/main/admin/mall-categories/order': '调整商城分类顺序',
  'PUT /svc/main/admin/mall-categories/:id': '修改商城分类',
  'DELETE /svc/main/admin/mall-categories/:id': '删除商城分类',
  'POST /svc/main/admin/banners': '新建首页横幅',
  'PUT /svc/main/admin/banners/:id': '编辑首页横幅',
  'DELETE /svc/main/admin/banners/:id': '删除首页横幅',
  'POST /svc/main/admin/mall-items/new': '新建商城商品',
  'POST /svc/main/admin/coupons/:id/stop': '停止发放优惠券',
  'PUT /svc/main/admin/price-steps': '更换加价阶梯',
  // The auction catalogue (cataloguers).
  'POST /svc/main/admin/photos': '上传图片',
  'PUT /svc/main/admin/specials/:id': '编辑专场',
  'PUT /svc/main/admin/lots/:id': '编辑拍品',
  'DELETE /svc/main/admin/lots/:id': '撤下拍品',
  'POST /svc/main/admin/specials/:id/lots/import': '批量导入拍品',
}

/** The staff's name for a logged call, or null when it has none (the English summary shows). */
export const staffActionName = (method: string, route: string): string | null =>
  STAFF_ACTION_NAMES[`${method} ${route}`] ?? null
