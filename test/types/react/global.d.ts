// As a React 19 app adds the elements' JSX types, once.
import type {} from 'gw-elements/react';
