// Forwarders for the libmosquitto functions ledring calls, filled by ledring_mosquitto_load. Each
// has the header's own prototype, so a signature that drifts from the installed mosquitto.h is a
// compile error. Before a successful load every call fails the way the library fails a bad
// argument (MOSQ_ERR_INVAL / NULL), never through a null pointer.
#include "CMosquitto.h"
#include "CLibraryLoader.h"

#define SLOT(name) static __typeof__(&name) p_##name
SLOT(mosquitto_lib_init); SLOT(mosquitto_connack_string); SLOT(mosquitto_connect_async);
SLOT(mosquitto_connect_callback_set); SLOT(mosquitto_destroy); SLOT(mosquitto_disconnect);
SLOT(mosquitto_disconnect_callback_set); SLOT(mosquitto_log_callback_set); SLOT(mosquitto_loop);
SLOT(mosquitto_message_callback_set); SLOT(mosquitto_new); SLOT(mosquitto_publish);
SLOT(mosquitto_reconnect_async); SLOT(mosquitto_socket); SLOT(mosquitto_strerror);
SLOT(mosquitto_subscribe_callback_set); SLOT(mosquitto_subscribe_multiple); SLOT(mosquitto_tls_set);
SLOT(mosquitto_username_pw_set); SLOT(mosquitto_will_set);

static const char *bind_all(void *library) {
    LEDRING_BIND(library, mosquitto_lib_init); LEDRING_BIND(library, mosquitto_connack_string);
    LEDRING_BIND(library, mosquitto_connect_async); LEDRING_BIND(library, mosquitto_connect_callback_set);
    LEDRING_BIND(library, mosquitto_destroy); LEDRING_BIND(library, mosquitto_disconnect);
    LEDRING_BIND(library, mosquitto_disconnect_callback_set); LEDRING_BIND(library, mosquitto_log_callback_set);
    LEDRING_BIND(library, mosquitto_loop); LEDRING_BIND(library, mosquitto_message_callback_set);
    LEDRING_BIND(library, mosquitto_new); LEDRING_BIND(library, mosquitto_publish);
    LEDRING_BIND(library, mosquitto_reconnect_async); LEDRING_BIND(library, mosquitto_socket);
    LEDRING_BIND(library, mosquitto_strerror); LEDRING_BIND(library, mosquitto_subscribe_callback_set);
    LEDRING_BIND(library, mosquitto_subscribe_multiple); LEDRING_BIND(library, mosquitto_tls_set);
    LEDRING_BIND(library, mosquitto_username_pw_set); LEDRING_BIND(library, mosquitto_will_set);
    p_mosquitto_lib_init();
    return NULL;
}

// The soname Debian's libmosquitto1 ships (/usr/lib/<triplet>/libmosquitto.so.1); the unversioned
// name is the -dev package's symlink, for a library built from source.
static const char *const sonames[] = { "libmosquitto.so.1", "libmosquitto.so" };
static struct ledring_library library = LEDRING_LIBRARY(sonames, bind_all);

int ledring_mosquitto_load(char *error, size_t size) { return ledring_library_load(&library, error, size); }

// The forwarders. `fail` is what a call returns before the library is loaded.
#define FORWARD(type, name, params, args, fail) \
    type name params { return p_##name ? p_##name args : (fail); }
#define FORWARD_VOID(name, params, args) \
    void name params { if (p_##name) p_##name args; }

FORWARD(int, mosquitto_lib_init, (void), (), MOSQ_ERR_INVAL)
FORWARD(const char *, mosquitto_connack_string, (int code), (code), "libmosquitto is not loaded")
FORWARD(int, mosquitto_connect_async, (struct mosquitto *m, const char *host, int port, int keepalive),
        (m, host, port, keepalive), MOSQ_ERR_INVAL)
FORWARD_VOID(mosquitto_connect_callback_set, (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int)), (m, cb))
FORWARD_VOID(mosquitto_destroy, (struct mosquitto *m), (m))
FORWARD(int, mosquitto_disconnect, (struct mosquitto *m), (m), MOSQ_ERR_INVAL)
FORWARD_VOID(mosquitto_disconnect_callback_set, (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int)), (m, cb))
FORWARD_VOID(mosquitto_log_callback_set, (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int, const char *)), (m, cb))
FORWARD(int, mosquitto_loop, (struct mosquitto *m, int timeout, int max_packets), (m, timeout, max_packets), MOSQ_ERR_INVAL)
FORWARD_VOID(mosquitto_message_callback_set,
             (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, const struct mosquitto_message *)), (m, cb))
FORWARD(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *obj), (id, clean_session, obj), NULL)
FORWARD(int, mosquitto_publish,
        (struct mosquitto *m, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain),
        (m, mid, topic, payloadlen, payload, qos, retain), MOSQ_ERR_INVAL)
FORWARD(int, mosquitto_reconnect_async, (struct mosquitto *m), (m), MOSQ_ERR_INVAL)
FORWARD(int, mosquitto_socket, (struct mosquitto *m), (m), -1)
FORWARD(const char *, mosquitto_strerror, (int code), (code), "libmosquitto is not loaded")
FORWARD_VOID(mosquitto_subscribe_callback_set,
             (struct mosquitto *m, void (*cb)(struct mosquitto *, void *, int, int, const int *)), (m, cb))
FORWARD(int, mosquitto_subscribe_multiple,
        (struct mosquitto *m, int *mid, int sub_count, char *const *const sub, int qos, int options,
         const mosquitto_property *properties),
        (m, mid, sub_count, sub, qos, options, properties), MOSQ_ERR_INVAL)
FORWARD(int, mosquitto_tls_set,
        (struct mosquitto *m, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
         int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)),
        (m, cafile, capath, certfile, keyfile, pw_callback), MOSQ_ERR_INVAL)
FORWARD(int, mosquitto_username_pw_set, (struct mosquitto *m, const char *username, const char *password),
        (m, username, password), MOSQ_ERR_INVAL)
FORWARD(int, mosquitto_will_set,
        (struct mosquitto *m, const char *topic, int payloadlen, const void *payload, int qos, bool retain),
        (m, topic, payloadlen, payload, qos, retain), MOSQ_ERR_INVAL)
