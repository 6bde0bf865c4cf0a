/* ordo — symbol visibility.  The library is built with -fvisibility=hidden;
 * only declarations marked ORDO_API are exported. */
#ifndef ORDO_EXPORT_H
#define ORDO_EXPORT_H
#if defined(ORDO_BUILDING_LIBRARY)
#  define ORDO_API __attribute__((visibility("default")))
#else
#  define ORDO_API
#endif
#endif
