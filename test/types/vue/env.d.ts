// As a Vue app adds the elements' template types, once.
import type {} from 'gw-elements/vue';
