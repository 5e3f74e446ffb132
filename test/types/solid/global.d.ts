// As a Solid app adds the elements' JSX types, once.
import type {} from 'gw-elements/solid';
