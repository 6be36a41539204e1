"""Drawing the console's views on a screen: window, KMS/DRM, framebuffer or headless.

Entry points for the application (imported from their modules, so that
importing the package costs nothing):

- :func:`display.auto.open_display` opens a :class:`display.base.Display`;
- :class:`display.render.Renderer` draws a :class:`pyramid.view.View` into a
  frame and returns the rectangles that changed, for ``Display.present``;
- :meth:`display.render.Renderer.hit_at` turns a tap into a target;
- :func:`display.settings.read_display` reads the ``[display]`` table (the file is read by ``pyramid.app.settings_file``).

Nothing here changes the game: views are read, never written.
"""
