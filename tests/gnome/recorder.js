// Evaluated once in the test session's gnome-shell (org.gnome.Shell.Eval): records what reaches
// the compositor's stage — buttons, keys, scrolling — in global._gesturepadEvents, which the
// tests read back and empty, and every remote access handle (a RemoteDesktop session seen from
// the compositor: its stop() is the "Stop" of the shell's indicator) in global._gesturepadHandles.
// A reactive, empty actor over the desktop's background takes the clicks that would open the
// background's menu (whose grab would keep later events from the stage). A virtual keyboard
// stands for the keyboard every desktop has: without one, the Wayland seat offers no keyboard
// (and no keymap) to clients until a RemoteDesktop session has made one and the layout changed.
(() => {
    if (global._gesturepadEvents)
        return true;
    const Clutter = imports.gi.Clutter;
    const T = Clutter.EventType;
    global._gesturepadEvents = [];
    global._gesturepadKeyboard = Clutter.get_default_backend().get_default_seat()
        .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
    const catcher = new imports.gi.St.Widget({reactive: true, x: 0, y: 0,
        width: global.stage.width, height: global.stage.height});
    global.window_group.insert_child_above(catcher, Main.layoutManager._backgroundGroup);
    global._gesturepadHandles = [];
    global.stage.connect('captured-event', (actor, event) => {
        const type = event.type();
        let entry = null;
        if (type === T.BUTTON_PRESS || type === T.BUTTON_RELEASE) {
            entry = {type: type === T.BUTTON_PRESS ? 'button-down' : 'button-up', button: event.get_button()};
        } else if (type === T.KEY_PRESS || type === T.KEY_RELEASE) {
            entry = {
                type: type === T.KEY_PRESS ? 'key-down' : 'key-up',
                keysym: event.get_key_symbol(), unicode: event.get_key_unicode(), keycode: event.get_key_code(),
            };
        } else if (type === T.SCROLL) {
            const direction = event.get_scroll_direction();
            entry = {type: 'scroll', direction, source: event.get_scroll_source(), finish: event.get_scroll_finish_flags()};
            if (direction === Clutter.ScrollDirection.SMOOTH) {
                const [dx, dy] = event.get_scroll_delta();
                entry.dx = dx;
                entry.dy = dy;
            }
        }
        if (entry !== null) {
            entry.state = event.get_state();
            global._gesturepadEvents.push(entry);
        }
        return Clutter.EVENT_PROPAGATE;
    });
    global.backend.get_remote_access_controller().connect('new-handle', (controller, handle) => {
        global._gesturepadHandles.push(handle);
        handle.connect('stopped', () => {
            global._gesturepadHandles = global._gesturepadHandles.filter(h => h !== handle);
        });
    });
    return true;
})()
