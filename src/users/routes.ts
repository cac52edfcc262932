// User management routes (Admin only), and currentUser/authenticate.
import type { RouteTable } from '../core/http/routes';
import type { AppDeps } from '../core/slice';

export function registerUserRoutes(_table: RouteTable, _deps: AppDeps): void {
  // Routes are added by the users/tokens wiring work.
}
