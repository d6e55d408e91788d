import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

/** The tab's router over the spec's route table (app/routes). */
export const router = createBrowserRouter(routes);
