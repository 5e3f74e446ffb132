/** The shop's frame alone (header, call log), for a page the shop's server rendered whole (a page it could not render, say). */
import { mountPage } from '../lib/layout.js';

mountPage();
