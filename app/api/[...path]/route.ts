import { unknownApiPath } from '@/lib/http/api-route';

export {
  unknownApiPath as GET,
  unknownApiPath as HEAD,
  unknownApiPath as POST,
  unknownApiPath as PUT,
  unknownApiPath as PATCH,
  unknownApiPath as DELETE,
  unknownApiPath as OPTIONS,
};
