// joco-view's page: the replay in window.JOCO_REPLAY (schemas/replay.md) drawn with three.js.
// Geometry is built once; a frame only sets the bodies' transforms from the Float32Arrays.
(function () {
  "use strict";
  var R = window.JOCO_REPLAY;
  if (!R || !window.THREE) {
    window.JOCO_FAIL(!R ? "no replay data (window.JOCO_REPLAY)" : "three.js is missing");
    return;
  }
  var M = R.model;
  var $ = function (id) { return document.getElementById(id); };

  // ---- data -------------------------------------------------------------------------------
  function bytes(b64) {
    var s = atob(b64 || ""), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out.buffer;
  }
  function f32(b64) { return new Float32Array(bytes(b64)); }
  function u32(b64) { return new Uint32Array(bytes(b64)); }

  // Trajectories are decoded when first shown.
  function traj(k) {
    var t = R.trajectories[k];
    if (!t._decoded) {
      t._time = f32(t.time);
      t._xpos = f32(t.xpos);
      t._xquat = f32(t.xquat);
      t._com = f32(t.com);
      if (t.contacts) {
        t._ncon = u32(t.contacts.ncon);
        t._cpos = f32(t.contacts.pos);
        t._cforce = f32(t.contacts.force);
        t._cstart = new Uint32Array(t.nframes + 1);
        for (var i = 0; i < t.nframes; i++) t._cstart[i + 1] = t._cstart[i] + t._ncon[i];
      }
      (t.plots || []).forEach(function (p) { p._values = f32(p.values); });
      t._decoded = true;
    }
    return t;
  }

  // ---- URL fragment -----------------------------------------------------------------------
  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    if (!kv) return;
    var i = kv.indexOf("=");
    hash[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1));
  });
  var still = hash.still === "1";
  if (still) document.body.classList.add("joco-still");

  // ---- renderer, scene, lights ------------------------------------------------------------
  var view = $("joco-view");
  // #aa=0: no multisampling, for software renderers (SwiftShader, llvmpipe), where it costs about
  // half the frame rate; fixed when the WebGL context is made.
  var renderer = new THREE.WebGLRenderer({ antialias: hash.aa !== "0", preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.shadowMap.type = THREE.PCFSoftShadowMap;
  view.insertBefore(renderer.domElement, view.firstChild);
  var scene = new THREE.Scene();
  scene.background = new THREE.Color(0.18, 0.2, 0.24);
  var extent = M.stat.extent > 0 ? M.stat.extent : 1;
  var meansize = M.stat.meansize > 0 ? M.stat.meansize : 0.1 * extent;
  var vis = M.visual || {};
  var zfar = (vis.zfar || 50 * extent);  // the data's clipping distances are in length units
  var camera = new THREE.PerspectiveCamera(vis.fovy || 45, 1, vis.znear || 0.01 * extent, zfar);
  camera.up.set(0, 0, 1);
  scene.add(camera);
  var hl = vis.headlight || { ambient: [0.1, 0.1, 0.1], diffuse: [0.4, 0.4, 0.4], active: 1 };
  var rgb = function (a) { return new THREE.Color(a[0], a[1], a[2]); };
  var ambient = new THREE.AmbientLight(rgb(hl.ambient), 1);
  scene.add(ambient);
  var headlight = new THREE.DirectionalLight(rgb(hl.diffuse), hl.active ? 1 : 0);
  headlight.position.set(0, 0, 1);  // shines along the camera's view
  camera.add(headlight);
  camera.add(headlight.target);
  headlight.target.position.set(0, 0, -1);

  // One group per body, moved each frame; geoms, sites, lights and joint axes are its children.
  var bodies = [];
  for (var b = 0; b < M.nbody; b++) {
    var g = new THREE.Group();
    g.name = M.bodies[b].name;
    scene.add(g);
    bodies.push(g);
  }

  // ---- materials and textures -------------------------------------------------------------
  var pending = 0;  // images still decoding: the page is ready only after them
  function builtinTexture(tx) {
    var w = 2, h = 2, c = document.createElement("canvas");
    c.width = c.height = 64;
    var ctx = c.getContext("2d"), css = function (a) {
      return "rgb(" + a.map(function (v) { return Math.round(255 * v); }).join(",") + ")";
    };
    if (tx.builtin === "checker") {
      for (var i = 0; i < w; i++) for (var j = 0; j < h; j++) {
        ctx.fillStyle = css((i + j) % 2 ? tx.rgb2 : tx.rgb1);
        ctx.fillRect(i * 32, j * 32, 32, 32);
      }
    } else if (tx.builtin === "gradient") {
      var grad = ctx.createLinearGradient(0, 0, 0, 64);
      grad.addColorStop(0, css(tx.rgb1));
      grad.addColorStop(1, css(tx.rgb2));
      ctx.fillStyle = grad;
      ctx.fillRect(0, 0, 64, 64);
    } else {
      ctx.fillStyle = css(tx.rgb1);
      ctx.fillRect(0, 0, 64, 64);
    }
    if (tx.mark === "edge" || tx.mark === "cross") {
      ctx.strokeStyle = css(tx.markrgb);
      ctx.lineWidth = 1;
      if (tx.mark === "edge") ctx.strokeRect(0.5, 0.5, 63, 63);
      else { ctx.beginPath(); ctx.moveTo(32, 0); ctx.lineTo(32, 64); ctx.moveTo(0, 32); ctx.lineTo(64, 32); ctx.stroke(); }
    }
    var t = new THREE.CanvasTexture(c);
    t.magFilter = THREE.NearestFilter;
    return t;
  }
  // A cube or skybox texture's PNG holds its faces stacked (right, left, up, down, front, back:
  // +X, -X, +Y, -Y, +Z, -Z, the order of a GL cube map) or one face used for all six.
  function cubeFaces(img) {
    var side = img.width, n = Math.floor(img.height / Math.max(1, side)), faces = [];
    for (var i = 0; i < 6; i++) {
      var c = document.createElement("canvas");
      c.width = c.height = side;
      c.getContext("2d").drawImage(img, 0, n >= 6 ? -i * side : 0);
      faces.push(c);
    }
    return faces;
  }
  var textures = (M.textures || []).map(function (tx) {
    var cube = tx.type !== "2d";
    if (tx.png) {
      var img = new Image(), t = cube ? new THREE.CubeTexture() : new THREE.Texture(img);
      if (cube) { t.minFilter = THREE.LinearFilter; t.generateMipmaps = false; }  // faces of any size (WebGL 1)
      pending++;
      img.onload = function () {
        if (cube) t.image = cubeFaces(img);
        t.needsUpdate = true;
        pending--;
        requestRender();
      };
      img.onerror = function () { pending--; window.JOCO_FAIL("texture " + tx.name + ": cannot decode its PNG"); };
      img.src = "data:image/png;base64," + tx.png;
      return t;
    }
    return !cube && tx.builtin && tx.builtin !== "none" ? builtinTexture(tx) : null;
  });

  // A cube texture on an object: MuJoCo samples it along the direction from the object's centre
  // (its frame's origin) to the point, in the object's frame; with texuniform the object is first
  // scaled to unit size.
  function useCubeMap(material, cubeTexture, scale) {
    material.onBeforeCompile = function (shader) {
      shader.uniforms.jocoCube = { value: cubeTexture };
      shader.uniforms.jocoCubeScale = { value: new THREE.Vector3(scale[0], scale[1], scale[2]) };
      shader.vertexShader = "varying vec3 vJocoObject;\nuniform vec3 jocoCubeScale;\n" +
        shader.vertexShader.replace("#include <begin_vertex>", "#include <begin_vertex>\n\tvJocoObject = position * jocoCubeScale;");
      shader.fragmentShader = "varying vec3 vJocoObject;\nuniform samplerCube jocoCube;\n" +
        shader.fragmentShader.replace("#include <map_fragment>", "diffuseColor.rgb *= textureCube( jocoCube, vJocoObject ).rgb;");
    };
  }

  // The skybox (the model's first skybox texture): a box around the camera, drawn first and
  // behind everything, turned as MuJoCo turns it (90 degrees about +X: the texture's +Y up).
  var skyTexture = null;
  (M.textures || []).forEach(function (tx, i) { if (!skyTexture && tx.type === "skybox" && textures[i]) skyTexture = textures[i]; });
  var skybox = null;
  if (skyTexture) {
    // (Subdivided: SwiftShader misclips a few huge triangles reaching behind the camera.)
    skybox = new THREE.Mesh(new THREE.BoxBufferGeometry(2, 2, 2, 8, 8, 8), new THREE.ShaderMaterial({
      uniforms: { jocoSky: { value: skyTexture } },
      vertexShader: "varying vec3 vDir;\nvoid main() {\n\tvDir = position;\n" +
        "\tgl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);\n}",
      fragmentShader: "uniform samplerCube jocoSky;\nvarying vec3 vDir;\nvoid main() {\n" +
        "\tgl_FragColor = vec4(textureCube(jocoSky, vec3(vDir.x, vDir.z, -vDir.y)).rgb, 1.0);\n}",
      side: THREE.BackSide, depthTest: false, depthWrite: false,
    }));
    // Centred on the camera, half the far distance across: inside the clipping planes (no depth
    // test: drawn first, behind everything).
    skybox.scale.setScalar(0.5 * zfar);
    skybox.onBeforeRender = function (r, s, cam) {
      skybox.position.setFromMatrixPosition(cam.matrixWorld);
      skybox.updateMatrixWorld();
    };
    skybox.frustumCulled = false;
    skybox.renderOrder = -1000;
    scene.add(skybox);
  }

  // MuJoCo's lights (OpenGL's): intensity 1 / (a0 + a1 d + a2 d^2) with distance d, and inside a
  // spot's cutoff cos(angle)^exponent. three.js's point and spot lights carry these in their
  // distance, decay and penumbra: distance = a1 / a0, decay = a2 / a0 (the colour divided by a0),
  // and the penumbra's cosine encodes the exponent e as cone + (1 - cone) e / (e + 1).
  THREE.ShaderChunk.lights_pars_begin = THREE.ShaderChunk.lights_pars_begin
    .replace(/(float punctualLightIntensityToIrradianceFactor\([^)]*\) \{)/,
             "$1\n\treturn 1.0 / max( 1e-6, 1.0 + cutoffDistance * lightDistance + decayExponent * lightDistance * lightDistance );")
    .replace("float spotEffect = smoothstep( spotLight.coneCos, spotLight.penumbraCos, angleCos );",
             "float jocoE = ( spotLight.penumbraCos - spotLight.coneCos ) / max( 1e-6, 1.0 - spotLight.coneCos );\n" +
             "\t\t\tfloat spotEffect = pow( max( angleCos, 0.0 ), jocoE / max( 1e-6, 1.0 - jocoE ) );");

  var materialCache = {};
  // A geom's or site's material: rgba (already the material's when it has one) and the material's
  // light properties; planes repeat their texture over their size.
  function materialFor(rgba, matId, repeat, cubeScale) {
    var key = rgba.join(",") + "|" + matId + "|" + (repeat ? repeat.join(",") : "") + "|" + (cubeScale ? cubeScale.join(",") : "");
    if (materialCache[key]) return materialCache[key];
    var mat = matId >= 0 ? M.materials[matId] : null;
    var p = new THREE.MeshPhongMaterial({
      color: new THREE.Color(rgba[0], rgba[1], rgba[2]),
      transparent: rgba[3] < 1, opacity: rgba[3], depthWrite: rgba[3] >= 1,
      side: THREE.DoubleSide,
    });
    p.specular = new THREE.Color(1, 1, 1).multiplyScalar(0.5 * (mat ? mat.specular : 0.5));  // Phong's highlight is harsher than MuJoCo's
    p.shininess = 128 * (mat ? mat.shininess : 0.5);
    if (mat && mat.emission > 0) p.emissive = p.color.clone().multiplyScalar(mat.emission);
    if (mat && mat.texture >= 0 && textures[mat.texture] && textures[mat.texture].isCubeTexture) {
      useCubeMap(p, textures[mat.texture], mat.texuniform && cubeScale ? cubeScale : [1, 1, 1]);
    } else if (mat && mat.texture >= 0 && textures[mat.texture]) {
      var t = textures[mat.texture];
      if (repeat) {
        t = t.clone();
        t.needsUpdate = true;
        t.wrapS = t.wrapT = THREE.RepeatWrapping;
        t.repeat.set(repeat[0], repeat[1]);
        t.offset.set(-(repeat[0] / 2 % 1), -(repeat[1] / 2 % 1));  // a texture's corner at the plane's centre
      }
      p.map = t;
    }
    p.userData.geom = true;  // fog and haze apply to the model's own surfaces only
    materialCache[key] = p;
    return p;
  }

  // ---- geometry ---------------------------------------------------------------------------
  var geometryCache = {};
  function cached(key, make) { return geometryCache[key] || (geometryCache[key] = make()); }
  function capsule(r, h) {  // along z, radius r, half-length h of the cylinder
    var pts = [], n = 12, i;
    for (i = 0; i <= n; i++) { var a = -Math.PI / 2 + (Math.PI / 2) * i / n; pts.push(new THREE.Vector2(r * Math.cos(a), -h + r * Math.sin(a))); }
    for (i = 0; i <= n; i++) { var c = (Math.PI / 2) * i / n; pts.push(new THREE.Vector2(r * Math.cos(c), h + r * Math.sin(c))); }
    return new THREE.LatheGeometry(pts, 24).rotateX(Math.PI / 2);
  }
  function meshGeometry(id) {
    return cached("mesh" + id, function () {
      var mesh = M.meshes[id], geo = new THREE.BufferGeometry();
      geo.setAttribute("position", new THREE.BufferAttribute(f32(mesh.vertices), 3));
      geo.setIndex(new THREE.BufferAttribute(u32(mesh.faces), 1));
      // Flat faces (as MuJoCo's convex hulls look): unshared vertices, one normal a face.
      geo = geo.toNonIndexed();
      geo.computeVertexNormals();
      return geo;
    });
  }
  function hfieldGeometry(id) {
    return cached("hfield" + id, function () {
      var hf = M.hfields[id], data = f32(hf.data), nr = hf.nrow, nc = hf.ncol, s = hf.size;
      var pos = new Float32Array(nr * nc * 3), idx = [];
      for (var r = 0; r < nr; r++) for (var c = 0; c < nc; c++) {
        var k = 3 * (r * nc + c);
        pos[k] = s[0] * (2 * c / (nc - 1) - 1);
        pos[k + 1] = s[1] * (2 * r / (nr - 1) - 1);
        pos[k + 2] = s[2] * data[r * nc + c];
        if (r + 1 < nr && c + 1 < nc) {
          var a = r * nc + c;
          idx.push(a, a + 1, a + nc + 1, a, a + nc + 1, a + nc);
        }
      }
      var geo = new THREE.BufferGeometry();
      geo.setAttribute("position", new THREE.BufferAttribute(pos, 3));
      geo.setIndex(idx);
      geo.computeVertexNormals();
      return geo;
    });
  }
  // Size 0: infinite; with a skybox it reaches the far clipping plane, where it meets the haze.
  function planeSize(s, i) { return s[i] > 0 ? 2 * s[i] : skybox ? 2 * zfar : 4 * extent; }
  function shapeGeometry(type, s, hfield, mesh) {
    var key = type + ":" + s.join(",");
    switch (type) {
      case "plane": return cached(key, function () {  // infinite ones subdivided (SwiftShader's clipping)
        var n = s[0] > 0 && s[1] > 0 ? 1 : 32;
        return new THREE.PlaneBufferGeometry(planeSize(s, 0), planeSize(s, 1), n, n);
      });
      case "sphere": return cached(key, function () { return new THREE.SphereBufferGeometry(s[0], 24, 16); });
      case "ellipsoid": return cached(key, function () { return new THREE.SphereBufferGeometry(1, 24, 16).scale(s[0], s[1], s[2]); });
      case "capsule": return cached(key, function () { return capsule(s[0], s[1]); });
      case "cylinder": return cached(key, function () { return new THREE.CylinderBufferGeometry(s[0], s[0], 2 * s[1], 24).rotateX(Math.PI / 2); });
      case "box": return cached(key, function () { return new THREE.BoxBufferGeometry(2 * s[0], 2 * s[1], 2 * s[2]); });
      case "mesh": return mesh >= 0 ? meshGeometry(mesh) : null;
      case "hfield": return hfield >= 0 ? hfieldGeometry(hfield) : null;
    }
    return null;
  }
  function place(obj, pos, quat) {
    obj.position.set(pos[0], pos[1], pos[2]);
    obj.quaternion.set(quat[1], quat[2], quat[3], quat[0]);
  }

  var geomMeshes = [];  // [{mesh, group}]
  var groupsPresent = {};
  M.geoms.forEach(function (gm) {
    var geo = shapeGeometry(gm.type, gm.size, gm.hfield, gm.mesh);
    if (!geo) return;
    var repeat = null;
    if (gm.type === "plane" && gm.material >= 0) {
      var pm = M.materials[gm.material];
      repeat = pm.texuniform ? [pm.texrepeat[0] * planeSize(gm.size, 0) / 2, pm.texrepeat[1] * planeSize(gm.size, 1) / 2]
                             : pm.texrepeat;
    }
    var mat = gm.material >= 0 ? M.materials[gm.material] : null, cubeScale = null;
    if (mat && mat.texuniform && mat.texture >= 0 && textures[mat.texture] && textures[mat.texture].isCubeTexture) {
      var z = gm.type === "capsule" || gm.type === "cylinder" ? gm.size[1] : gm.size[2];
      cubeScale = gm.type === "mesh" || gm.type === "hfield" ? [1, 1, 1]
                : gm.type === "sphere" ? [1 / gm.size[0], 1 / gm.size[0], 1 / gm.size[0]]
                : [1 / gm.size[0], 1 / (gm.type === "box" || gm.type === "ellipsoid" ? gm.size[1] : gm.size[0]), 1 / z];
    }
    var mesh = new THREE.Mesh(geo, materialFor(gm.rgba, gm.material, repeat, cubeScale));
    mesh.name = gm.name;
    if (gm.type === "plane" && !(gm.size[0] > 0 && gm.size[1] > 0)) mesh.material.userData.infinite = true;
    place(mesh, gm.pos, gm.quat);
    mesh.castShadow = gm.type !== "plane" && gm.type !== "hfield";
    mesh.receiveShadow = true;
    if (gm.type === "plane" && !(gm.material >= 0 && mesh.material.map)) {
      // An untextured plane gets a grid, as MuJoCo draws one.
      var w = planeSize(gm.size, 0), h = planeSize(gm.size, 1), n = Math.max(2, Math.round(Math.max(w, h) / meansize / 4));
      var grid = new THREE.GridHelper(Math.max(w, h), Math.min(n, 200), 0x888888, 0x666666);
      grid.rotateX(Math.PI / 2);
      grid.position.z = 1e-3 * extent;
      grid.scale.set(w / Math.max(w, h), 1, h / Math.max(w, h));
      mesh.add(grid);
    }
    bodies[gm.body].add(mesh);
    geomMeshes.push({ mesh: mesh, group: gm.group });
    groupsPresent[gm.group] = true;
  });

  var siteMeshes = [];
  (M.sites || []).forEach(function (st) {
    var geo = shapeGeometry(st.type, st.size, -1, -1);
    if (!geo) return;
    var mesh = new THREE.Mesh(geo, materialFor(st.rgba, -1, null));
    mesh.name = st.name;
    place(mesh, st.pos, st.quat);
    mesh.visible = false;
    bodies[st.body].add(mesh);
    siteMeshes.push({ mesh: mesh, group: st.group });
  });

  // The model's lights, in their bodies' frames (light's direction: dir).
  var modelLights = [];
  (M.lights || []).forEach(function (lt) {
    // Directional: parallel rays along dir; else a spot at pos (the cone, the exponent and the
    // attenuation as lights_pars_begin above reads them).
    var light, a = lt.attenuation || [1, 0, 0], a0 = a[0] > 0 ? a[0] : 1;
    if (lt.directional) {
      light = new THREE.DirectionalLight(rgb(lt.diffuse), 1);
    } else {
      var cutoff = Math.min(89.9, Math.max(0.1, lt.cutoff)) * Math.PI / 180, coneCos = Math.cos(cutoff);
      var e = Math.max(0, lt.exponent || 0), penumbraCos = coneCos + (1 - coneCos) * e / (e + 1);
      light = new THREE.SpotLight(rgb(lt.diffuse).multiplyScalar(1 / a0), 1, a[1] / a0, cutoff,
                                  1 - Math.acos(Math.min(1, penumbraCos)) / cutoff, a[2] / a0);
      // The shadow camera must not take `distance` (a1 / a0 here) as its far plane.
      var update = light.shadow.updateMatrices.bind(light.shadow), spot = light;
      light.shadow.updateMatrices = function (l) {
        var d = spot.distance;
        spot.distance = 0;
        update(l);
        spot.distance = d;
      };
    }
    light.visible = lt.active;
    light.position.set(lt.pos[0], lt.pos[1], lt.pos[2]);
    light.target.position.set(lt.pos[0] + lt.dir[0], lt.pos[1] + lt.dir[1], lt.pos[2] + lt.dir[2]);
    light.castShadow = false;
    light.userData.castshadow = lt.castshadow;
    if (lt.directional) {
      var sc = light.shadow.camera, r = 2 * extent;
      sc.left = sc.bottom = -r; sc.right = sc.top = r; sc.near = 0.01; sc.far = 10 * extent;
    }
    if (!lt.directional) { light.shadow.camera.near = 0.05 * extent; light.shadow.camera.far = 20 * extent; }
    light.shadow.mapSize.set(1024, 1024);
    bodies[lt.body].add(light);
    bodies[lt.body].add(light.target);
    ambient.color.add(rgb(lt.ambient));
    modelLights.push(light);
  });

  // Joint axes (hidden until asked for): an arrow at each hinge's and slide's anchor.
  var jointArrows = [];
  (M.joints || []).forEach(function (jt) {
    if (jt.type !== "hinge" && jt.type !== "slide") return;
    var arrow = new THREE.ArrowHelper(new THREE.Vector3(jt.axis[0], jt.axis[1], jt.axis[2]).normalize(),
                                      new THREE.Vector3(jt.pos[0], jt.pos[1], jt.pos[2]), 2 * meansize,
                                      jt.type === "hinge" ? 0xff5050 : 0x50ff50, 0.5 * meansize, 0.25 * meansize);
    arrow.visible = false;
    arrow.traverse(function (o) { if (o.material) { o.material.depthTest = false; o.renderOrder = 10; } });
    bodies[jt.body].add(arrow);
    jointArrows.push(arrow);
  });

  // Centre of mass: a ball and a plumb line to z = 0.
  var comMark = new THREE.Group();
  var comBall = new THREE.Mesh(new THREE.SphereBufferGeometry(0.5 * meansize, 16, 12),
                               new THREE.MeshBasicMaterial({ color: 0xffdd00, depthTest: false }));
  comBall.renderOrder = 10;
  var comLineGeo = new THREE.BufferGeometry();
  comLineGeo.setAttribute("position", new THREE.BufferAttribute(new Float32Array(6), 3));
  var comLine = new THREE.Line(comLineGeo, new THREE.LineBasicMaterial({ color: 0xffdd00 }));
  comMark.add(comBall, comLine);
  comMark.visible = false;
  scene.add(comMark);

  // Contacts: points and force arrows as line segments, buffers sized for the largest frame.
  var contactMark = new THREE.Group(), maxContacts = 0, forceScale = 0;
  R.trajectories.forEach(function (t, k) {
    if (!t.contacts) return;
    var tt = traj(k), sum = 0, n = 0;
    for (var i = 0; i < t.nframes; i++) maxContacts = Math.max(maxContacts, tt._ncon[i]);
    for (var c = 0; c < tt._cforce.length; c += 3) {
      var f = Math.hypot(tt._cforce[c], tt._cforce[c + 1], tt._cforce[c + 2]);
      if (f > 0) { sum += f; n++; }
    }
    if (n) forceScale = Math.max(forceScale, sum / n);
  });
  forceScale = forceScale > 0 ? 4 * meansize / forceScale : 0;  // the mean force is 4 mean sizes long
  var contactPoints = new THREE.Points(new THREE.BufferGeometry(),
                                       new THREE.PointsMaterial({ color: 0xff3030, size: 6, sizeAttenuation: false, depthTest: false }));
  contactPoints.geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(3 * Math.max(1, maxContacts)), 3));
  var contactForces = new THREE.LineSegments(new THREE.BufferGeometry(),
                                             new THREE.LineBasicMaterial({ color: 0x30ff80, depthTest: false }));
  contactForces.geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(6 * Math.max(1, maxContacts)), 3));
  contactPoints.renderOrder = contactForces.renderOrder = 11;
  contactPoints.frustumCulled = contactForces.frustumCulled = false;
  contactMark.add(contactPoints, contactForces);
  scene.add(contactMark);

  // ---- state --------------------------------------------------------------------------------
  var state = { k: 0, frame: 0, time: 0, playing: false, speed: 1, overlays: {} };
  var K = Math.min(Math.max(0, parseInt(hash.rollout || "0", 10) || 0), R.trajectories.length - 1);

  // Other trajectories drawn at once: translucent copies of the bodies' geoms.
  var ghosts = {};  // k -> [group per body]
  function ghostOf(k) {
    if (ghosts[k]) return ghosts[k];
    var hue = (0.15 + 0.37 * Object.keys(ghosts).length) % 1;
    var mat = new THREE.MeshPhongMaterial({ color: new THREE.Color().setHSL(hue, 0.7, 0.55), transparent: true, opacity: 0.4, depthWrite: false });
    ghosts[k] = bodies.map(function (body, b) {
      var g = new THREE.Group();
      body.children.forEach(function (o) {
        if (!o.isMesh || siteMeshes.some(function (s) { return s.mesh === o; })) return;
        if (b === 0) return;  // the world's geoms do not move
        var m = new THREE.Mesh(o.geometry, mat);
        m.position.copy(o.position);
        m.quaternion.copy(o.quaternion);
        m.userData.source = o;
        g.add(m);
      });
      scene.add(g);
      return g;
    });
    return ghosts[k];
  }

  function frameAt(t, time) {  // the last frame at or before `time`
    var lo = 0, hi = t.nframes - 1;
    if (time <= t._time[0]) return 0;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (t._time[mid] <= time + 1e-7) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function poseBodies(groups, t, f) {
    var p = t._xpos, q = t._xquat, op = 3 * M.nbody * f, oq = 4 * M.nbody * f;
    for (var b = 0; b < M.nbody; b++) {
      var g = groups[b];
      g.position.set(p[op + 3 * b], p[op + 3 * b + 1], p[op + 3 * b + 2]);
      g.quaternion.set(q[oq + 4 * b + 1], q[oq + 4 * b + 2], q[oq + 4 * b + 3], q[oq + 4 * b]);
    }
  }

  function applyFrame() {
    var t = traj(state.k), f = state.frame;
    poseBodies(bodies, t, f);
    Object.keys(state.overlays).forEach(function (k) {
      if (!state.overlays[k]) return;
      var o = traj(+k), g = ghostOf(+k);
      poseBodies(g, o, frameAt(o, t._time[f]));
      g.forEach(function (x) { x.visible = true; });
    });
    var c = t._com, cx = c[3 * f], cy = c[3 * f + 1], cz = c[3 * f + 2];
    comBall.position.set(cx, cy, cz);
    var lp = comLineGeo.attributes.position;
    lp.setXYZ(0, cx, cy, cz); lp.setXYZ(1, cx, cy, 0); lp.needsUpdate = true;
    var n = 0;
    if (t.contacts) {
      var s = t._cstart[f], pp = contactPoints.geometry.attributes.position, fp = contactForces.geometry.attributes.position;
      n = t._ncon[f];
      for (var i = 0; i < n; i++) {
        var j = 3 * (s + i), x = t._cpos[j], y = t._cpos[j + 1], z = t._cpos[j + 2];
        pp.setXYZ(i, x, y, z);
        fp.setXYZ(2 * i, x, y, z);
        fp.setXYZ(2 * i + 1, x + forceScale * t._cforce[j], y + forceScale * t._cforce[j + 1], z + forceScale * t._cforce[j + 2]);
      }
      pp.needsUpdate = fp.needsUpdate = true;
    }
    contactPoints.geometry.setDrawRange(0, n);
    contactForces.geometry.setDrawRange(0, 2 * n);
    updateCamera();
  }

  // ---- cameras ------------------------------------------------------------------------------
  var controls = THREE.OrbitControls ? new THREE.OrbitControls(camera, renderer.domElement) : null;
  function freeCamera() {
    // MuJoCo's free camera: looking at the model's centre, azimuth 90, elevation -45, 1.5 extents away.
    var c = M.stat.center, d = 1.5 * extent, el = -45 * Math.PI / 180, az = 90 * Math.PI / 180;
    camera.position.set(c[0] - d * Math.cos(el) * Math.cos(az), c[1] - d * Math.cos(el) * Math.sin(az), c[2] - d * Math.sin(el));
    if (controls) { controls.target.set(c[0], c[1], c[2]); controls.update(); }
    else camera.lookAt(c[0], c[1], c[2]);
  }
  var camMode = { kind: "free" }, lastTrack = null;
  var tmpM = new THREE.Matrix4(), tmpQ = new THREE.Quaternion(), tmpV = new THREE.Vector3();
  function updateCamera() {
    if (camMode.kind === "track") {
      var p = bodies[camMode.body].position;
      if (lastTrack) {  // move camera and target with the body
        tmpV.copy(p).sub(lastTrack);
        camera.position.add(tmpV);
        if (controls) controls.target.add(tmpV);
      }
      lastTrack = p.clone();
      if (controls) controls.update();
    } else if (camMode.kind === "model") {
      var cm = M.cameras[camMode.index], body = bodies[cm.body];
      var local = new THREE.Vector3(cm.pos[0], cm.pos[1], cm.pos[2]);
      var lq = new THREE.Quaternion(cm.quat[1], cm.quat[2], cm.quat[3], cm.quat[0]);
      camera.fov = cm.fovy;
      camera.updateProjectionMatrix();
      if (cm.mode === "fixed") {
        camera.position.copy(local).applyQuaternion(body.quaternion).add(body.position);
        camera.quaternion.copy(body.quaternion).multiply(lq);
      } else {
        // track / trackcom: the offset and orientation seen in the first frame, carried along;
        // targetbody(com): from there, looking at the target.
        var t = traj(state.k), anchor = cm.mode.indexOf("com") >= 0 ? comBall.position : body.position;
        if (!camMode.offset) {
          var p0 = new THREE.Vector3(t._xpos[3 * cm.body], t._xpos[3 * cm.body + 1], t._xpos[3 * cm.body + 2]);
          var q0 = new THREE.Quaternion(t._xquat[4 * cm.body + 1], t._xquat[4 * cm.body + 2], t._xquat[4 * cm.body + 3], t._xquat[4 * cm.body]);
          var com0 = new THREE.Vector3(t._com[0], t._com[1], t._com[2]);
          var world0 = local.clone().applyQuaternion(q0).add(p0);
          camMode.offset = world0.sub(cm.mode.indexOf("com") >= 0 ? com0 : p0);
          camMode.quat = q0.multiply(lq);
        }
        camera.position.copy(anchor).add(camMode.offset);
        camera.quaternion.copy(camMode.quat);
        if (cm.mode.indexOf("target") === 0 && cm.target >= 0) {
          camera.position.copy(local).applyQuaternion(body.quaternion).add(body.position);
          camera.lookAt(bodies[cm.target].position);
        }
      }
    }
  }
  function setCamera(name) {
    camMode = { kind: "free" };
    lastTrack = null;
    camera.fov = vis.fovy || 45;
    camera.updateProjectionMatrix();
    if (controls) controls.enabled = true;
    if (name && name.indexOf("track:") === 0) {
      var b = bodyIndex(name.slice(6));
      if (b >= 0) camMode = { kind: "track", body: b };
      freeCamera();
      if (b >= 0 && controls) { var p = bodies[b].position; controls.target.copy(p); controls.update(); lastTrack = p.clone(); }
    } else if (name && name !== "free") {
      var i = (M.cameras || []).findIndex(function (c, j) { return c.name === name || String(j) === name; });
      if (i >= 0) { camMode = { kind: "model", index: i }; if (controls) controls.enabled = false; }
      else freeCamera();
    } else {
      freeCamera();
    }
    updateCamera();
    requestRender();
  }
  function bodyIndex(name) {
    for (var b = 0; b < M.nbody; b++) if (M.bodies[b].name === name || String(b) === name) return b;
    return -1;
  }

  // ---- rendering -------------------------------------------------------------------------------
  var needsRender = true;
  function requestRender() { needsRender = true; }
  function resize() {
    var w = view.clientWidth || window.innerWidth, h = view.clientHeight || window.innerHeight;
    renderer.setSize(w, h, true);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    requestRender();
  }
  window.addEventListener("resize", resize);
  if (controls) controls.addEventListener("change", requestRender);

  function setVisibility() {
    var groups = state.groups;
    geomMeshes.forEach(function (g) { g.mesh.visible = !!groups[g.group]; });
    siteMeshes.forEach(function (s) { s.mesh.visible = state.sites && s.group < 3; });
    jointArrows.forEach(function (a) { a.visible = state.joints; });
    comMark.visible = state.com;
    contactMark.visible = state.contacts;
    Object.keys(ghosts).forEach(function (k) {
      ghosts[k].forEach(function (g) {
        g.visible = !!state.overlays[k];
        g.children.forEach(function (m) { m.visible = m.userData.source.visible; });
      });
    });
    // Fog (MuJoCo's <map fogstart fogend>, <rgba fog>; off by default as in MuJoCo) on every
    // geom; else the haze (<rgba haze>, <map haze>) on infinite planes under a skybox, over the
    // last `haze` part of the way to the far clipping plane, where they meet the sky.
    var fogOn = state.fog && fog !== null;
    scene.fog = fogOn ? fog : haze;
    scene.traverse(function (o) {
      if (o.material && !o.material.isShaderMaterial) o.material.fog = !!o.material.userData.geom && (fogOn || !!o.material.userData.infinite);
    });
    renderer.shadowMap.enabled = state.shadows;
    modelLights.forEach(function (l) { l.castShadow = state.shadows && l.userData.castshadow; });
    scene.traverse(function (o) { if (o.material) o.material.needsUpdate = true; });
    requestRender();
  }

  var fogData = vis.fog || {}, fog = fogData.end > fogData.start && fogData.rgba ? new THREE.Fog(rgb(fogData.rgba), fogData.start, fogData.end) : null;
  var haze = skybox && geomMeshes.some(function (g) { return g.mesh.material.userData.infinite; }) && vis.rgba_haze
           ? new THREE.Fog(rgb(vis.rgba_haze), (1 - (vis.haze >= 0 ? vis.haze : 0.3)) * zfar, zfar) : null;

  // ---- time -----------------------------------------------------------------------------------
  function setFrame(f) {
    var t = traj(state.k);
    state.frame = Math.max(0, Math.min(t.nframes - 1, f));
    state.time = t._time[state.frame];
    applyFrame();
    if (!still) {
      $("joco-timeline").value = state.frame;
      $("joco-time").textContent = state.time.toFixed(3) + " s";
      drawPlots();
    }
    requestRender();
  }
  function setTime(time) {
    var t = traj(state.k);
    state.time = time;
    var f = frameAt(t, time);
    setFrame(f);
    state.time = time;  // between frames while playing
  }
  function setTrajectory(k) {
    state.k = k;
    var t = traj(k);
    if (!still) {
      $("joco-timeline").max = t.nframes - 1;
      $("joco-rollout").value = k;
      buildPlotChoices();
    }
    if (camMode.kind === "model") camMode.offset = null;
    setTime(state.time);
  }
  function setPlaying(on) {
    state.playing = on;
    if (!still) $("joco-play").innerHTML = on ? "&#10073;&#10073;" : "&#9654;";
    if (on) {
      var t = traj(state.k);
      if (state.frame >= t.nframes - 1) setFrame(0);
    }
  }

  // ---- plots ----------------------------------------------------------------------------------
  var plots = [];  // {dataset, columns: {index: true}, canvas, select, box}
  var colors = ["#4e9af1", "#f1884e", "#5ec46a", "#e05c9b", "#c8b740", "#9b7bea", "#47c6c6", "#d45050"];
  function plotSets() { return traj(state.k).plots || []; }
  function addPlot(name) {
    var sets = plotSets();
    if (!sets.length) return;
    var box = document.createElement("div");
    box.className = "joco-plot";
    var head = document.createElement("div");
    head.className = "joco-plot-head";
    var select = document.createElement("select");
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.title = "remove this plot";
    var cols = document.createElement("div");
    cols.className = "joco-plot-columns";
    var canvas = document.createElement("canvas");
    head.appendChild(select);
    head.appendChild(close);
    box.appendChild(head);
    box.appendChild(canvas);
    box.appendChild(cols);
    $("joco-plots").appendChild(box);
    var plot = { dataset: name || sets[0].name, columns: null, canvas: canvas, select: select, cols: cols, box: box };
    plots.push(plot);
    select.addEventListener("change", function () { plot.dataset = select.value; plot.columns = null; buildPlotChoices(); });
    close.addEventListener("click", function () { plots.splice(plots.indexOf(plot), 1); box.remove(); });
    var dragging = false;
    function scrub(e) {
      var r = canvas.getBoundingClientRect(), t = traj(state.k);
      var x = (e.clientX - r.left - plot.x0) / Math.max(1, plot.w);
      setPlaying(false);
      setTime(t._time[0] + Math.max(0, Math.min(1, x)) * (t._time[t.nframes - 1] - t._time[0]));
    }
    canvas.addEventListener("pointerdown", function (e) { dragging = true; canvas.setPointerCapture(e.pointerId); scrub(e); });
    canvas.addEventListener("pointermove", function (e) { if (dragging) scrub(e); });
    canvas.addEventListener("pointerup", function () { dragging = false; });
    buildPlotChoices();
  }
  function buildPlotChoices() {
    var sets = plotSets();
    plots.forEach(function (plot) {
      plot.select.innerHTML = "";
      sets.forEach(function (s) { var o = document.createElement("option"); o.value = o.textContent = s.name; plot.select.appendChild(o); });
      var set = sets.find(function (s) { return s.name === plot.dataset; }) || sets[0];
      if (!set) return;
      plot.dataset = set.name;
      plot.select.value = set.name;
      if (!plot.columns) { plot.columns = {}; for (var i = 0; i < Math.min(4, set.columns.length); i++) plot.columns[i] = true; }
      plot.cols.innerHTML = "";
      set.columns.forEach(function (c, i) {
        var l = document.createElement("label"), cb = document.createElement("input");
        cb.type = "checkbox";
        cb.checked = !!plot.columns[i];
        cb.addEventListener("change", function () { plot.columns[i] = cb.checked; drawPlots(); });
        l.appendChild(cb);
        l.appendChild(document.createTextNode(c));
        l.style.color = colors[i % colors.length];
        plot.cols.appendChild(l);
      });
    });
    drawPlots();
  }
  function drawPlots() {
    var t = traj(state.k);
    plots.forEach(function (plot) {
      var set = plotSets().find(function (s) { return s.name === plot.dataset; });
      var c = plot.canvas, dpr = window.devicePixelRatio || 1;
      var W = c.clientWidth || 300, H = c.clientHeight || 160;
      if (c.width !== Math.round(W * dpr)) { c.width = Math.round(W * dpr); c.height = Math.round(H * dpr); plot.cache = null; }
      var ctx = c.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      plot.x0 = 40; plot.w = W - 48;
      var key = state.k + "|" + plot.dataset + "|" + JSON.stringify(plot.columns) + "|" + W + "x" + H;
      if (plot.cacheKey !== key) {
        // The curves are drawn once into an offscreen canvas; a frame redraws only the cursor.
        plot.cacheKey = key;
        var off = plot.cache = document.createElement("canvas");
        off.width = c.width; off.height = c.height;
        var o = off.getContext("2d");
        o.setTransform(dpr, 0, 0, dpr, 0, 0);
        o.fillStyle = "#15181d"; o.fillRect(0, 0, W, H);
        if (set) {
          var ncol = set.columns.length, v = set._values, lo = Infinity, hi = -Infinity, i, j;
          for (j = 0; j < ncol; j++) if (plot.columns[j]) for (i = 0; i < t.nframes; i++) { var x = v[i * ncol + j]; if (isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); } }
          if (!(hi > lo)) { lo = (isFinite(lo) ? lo : 0) - 1; hi = lo + 2; }
          var pad = 0.05 * (hi - lo); lo -= pad; hi += pad;
          var t0 = t._time[0], t1 = t._time[t.nframes - 1], span = t1 > t0 ? t1 - t0 : 1;
          var X = function (tt) { return plot.x0 + plot.w * (tt - t0) / span; };
          var Y = function (y) { return 6 + (H - 22) * (hi - y) / (hi - lo); };
          o.strokeStyle = "#333a44"; o.lineWidth = 1; o.fillStyle = "#8a93a0"; o.font = "10px sans-serif";
          [lo + pad, (lo + hi) / 2, hi - pad].forEach(function (y) {
            o.beginPath(); o.moveTo(plot.x0, Y(y)); o.lineTo(plot.x0 + plot.w, Y(y)); o.stroke();
            o.fillText(y.toPrecision(3), 2, Y(y) + 3);
          });
          o.fillText(t0.toFixed(2) + " s", plot.x0, H - 4);
          o.fillText(t1.toFixed(2) + " s", plot.x0 + plot.w - 34, H - 4);
          var step = Math.max(1, Math.floor(t.nframes / (2 * plot.w)));
          for (j = 0; j < ncol; j++) {
            if (!plot.columns[j]) continue;
            o.strokeStyle = colors[j % colors.length];
            o.beginPath();
            for (i = 0; i < t.nframes; i += step) { var px = X(t._time[i]), py = Y(v[i * ncol + j]); if (i) o.lineTo(px, py); else o.moveTo(px, py); }
            o.stroke();
          }
          plot.X = X;
        }
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(plot.cache, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      if (plot.X) {
        var cx = plot.X(t._time[state.frame]);
        ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(cx, 0); ctx.lineTo(cx, H); ctx.stroke();
      }
    });
  }

  // ---- recording --------------------------------------------------------------------------------
  // The canvas as a WebM video (MediaRecorder): the button starts and stops it, and the video is
  // offered for download; #record=N (the browser tests) records N drawn frames while playing and
  // logs the video's size and type instead.
  var recorder = null;
  function startRecording(done) {
    if (!window.MediaRecorder || !renderer.domElement.captureStream) return "this browser cannot record the canvas (MediaRecorder)";
    var chunks = [], type = ["video/webm;codecs=vp8", "video/webm"].find(function (x) { return MediaRecorder.isTypeSupported(x); });
    // A frame whenever the canvas changes (headless Chromium recorded nothing with vp9 at a fixed 60).
    recorder = new MediaRecorder(renderer.domElement.captureStream(), type ? { mimeType: type } : {});
    recorder.ondataavailable = function (e) { if (e.data.size) chunks.push(e.data); };
    recorder.onstop = function () {
      var blob = new Blob(chunks, { type: recorder.mimeType || "video/webm" });
      recorder = null;
      done(blob);
    };
    recorder.onerror = function (e) { window.JOCO_FAIL("recording: " + (e.error && e.error.message || e)); };
    recorder.start(250);
    recorder.frames = 0;
    if (!state.playing) setPlaying(true);
    return "";
  }
  function toggleRecording() {
    var button = $("joco-record");
    if (recorder) { recorder.stop(); return; }
    var why = startRecording(function (blob) {
      var a = $("joco-download");
      a.href = URL.createObjectURL(blob);
      a.download = (M.name || "replay") + ".webm";
      a.textContent = "download " + a.download;
      a.hidden = false;
      a.click();
      button.classList.remove("joco-on");
      button.innerHTML = "&#9679; rec";
    });
    if (why) { window.alert(why); return; }
    button.classList.add("joco-on");
    button.innerHTML = "&#9632; stop";
  }
  function recordFrames(n) {
    var why = startRecording(function (blob) {
      setPlaying(false);
      // The first four bytes too: a WebM (Matroska) file starts with EBML's 1a 45 df a3.
      var reader = new FileReader();
      reader.onload = function () {
        var head = Array.prototype.map.call(new Uint8Array(reader.result), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
        console.log("joco-view record: " + recorded + " frames, " + blob.size + " bytes, " + blob.type + ", starts " + head);
      };
      reader.readAsArrayBuffer(blob.slice(0, 4));
    });
    var recorded = 0;
    if (why) { console.error("joco-view record: " + why); return; }
    recorder.onframe = function () { if (++recorded === n) recorder.stop(); };
  }

  // ---- user interface ---------------------------------------------------------------------------
  state.groups = {};
  var groupList = hash.groups !== undefined ? hash.groups.split(",").filter(function (s) { return s !== ""; }).map(Number) : [0, 1, 2];
  groupList.forEach(function (g) { state.groups[g] = true; });
  state.sites = false;
  state.contacts = true;
  state.com = false;
  state.joints = false;
  state.shadows = false;
  state.fog = hash.fog === "1";

  // A trajectory's name in the choosers: a file's root group ("/") by the file's name.
  function trajectoryLabel(t) {
    if (t.name !== "/") return t.name;
    var file = (t.source || "").replace(/:\/$/, "").split(/[\\/]/).pop();
    return file || "trajectory";
  }

  function buildUi() {
    $("joco-title").textContent = R.title || M.name;
    var sel = $("joco-rollout");
    R.trajectories.forEach(function (t, k) { var o = document.createElement("option"); o.value = k; o.textContent = trajectoryLabel(t) + " (" + t.nframes + " frames)"; sel.appendChild(o); });
    sel.addEventListener("change", function () { setTrajectory(+sel.value); });
    var ov = $("joco-overlay");
    if (R.trajectories.length < 2) $("joco-overlay-box").hidden = true;
    R.trajectories.forEach(function (t, k) {
      var l = document.createElement("label"), cb = document.createElement("input");
      cb.type = "checkbox";
      cb.addEventListener("change", function () { state.overlays[k] = cb.checked; if (cb.checked) ghostOf(k); setVisibility(); applyFrame(); });
      l.appendChild(cb); l.appendChild(document.createTextNode(trajectoryLabel(t)));
      ov.appendChild(l);
    });
    var cam = $("joco-camera");
    var addOpt = function (v, text) { var o = document.createElement("option"); o.value = v; o.textContent = text; cam.appendChild(o); };
    addOpt("free", "free orbit");
    (M.cameras || []).forEach(function (c, i) { addOpt(c.name || String(i), "camera " + (c.name || i)); });
    M.bodies.forEach(function (bd, b) { if (b > 0) addOpt("track:" + (bd.name || b), "track " + (bd.name || "body " + b)); });
    cam.addEventListener("change", function () { setCamera(cam.value); });
    var groupsBox = $("joco-groups");
    Object.keys(groupsPresent).map(Number).sort(function (a, b) { return a - b; }).forEach(function (g) {
      var l = document.createElement("label"), cb = document.createElement("input");
      cb.type = "checkbox"; cb.checked = !!state.groups[g];
      cb.addEventListener("change", function () { state.groups[g] = cb.checked; setVisibility(); });
      l.appendChild(cb); l.appendChild(document.createTextNode(String(g)));
      groupsBox.appendChild(l);
    });
    [["joco-show-sites", "sites"], ["joco-show-contacts", "contacts"], ["joco-show-com", "com"], ["joco-show-joints", "joints"], ["joco-show-shadows", "shadows"], ["joco-show-fog", "fog"]].forEach(function (p) {
      var cb = $(p[0]);
      cb.checked = state[p[1]];
      cb.addEventListener("change", function () { state[p[1]] = cb.checked; setVisibility(); });
    });
    if (!R.trajectories.some(function (t) { return t.contacts; })) $("joco-show-contacts").parentNode.hidden = true;
    $("joco-play").addEventListener("click", function () { setPlaying(!state.playing); });
    $("joco-step").addEventListener("click", function () { setPlaying(false); setFrame(state.frame + 1); });
    $("joco-step-back").addEventListener("click", function () { setPlaying(false); setFrame(state.frame - 1); });
    $("joco-speed").addEventListener("change", function () { state.speed = +$("joco-speed").value; });
    $("joco-timeline").addEventListener("input", function () { setPlaying(false); setFrame(+$("joco-timeline").value); });
    $("joco-record").addEventListener("click", toggleRecording);
    $("joco-add-plot").addEventListener("click", function () { addPlot(); });
    if (!plotSets().length) $("joco-add-plot").hidden = true;
    document.addEventListener("keydown", function (e) {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (e.key === " ") { setPlaying(!state.playing); e.preventDefault(); }
      else if (e.key === "." || e.key === "ArrowRight") { setPlaying(false); setFrame(state.frame + 1); }
      else if (e.key === "," || e.key === "ArrowLeft") { setPlaying(false); setFrame(state.frame - 1); }
    });
  }

  // ---- start ------------------------------------------------------------------------------------
  var lastNow = null;
  function tick(now) {
    requestAnimationFrame(tick);
    var t0 = measure ? performance.now() : 0;
    if (state.playing) {
      var t = traj(state.k);
      if (lastNow !== null) {
        var time = state.time + state.speed * (now - lastNow) / 1000;
        if (time > t._time[t.nframes - 1]) time = t._time[0] + (time - t._time[t.nframes - 1]) % Math.max(1e-9, t._time[t.nframes - 1] - t._time[0]);
        setTime(time);
      }
      lastNow = now;
    } else {
      lastNow = null;
    }
    if (camMode.kind === "track" && controls) controls.update();
    var t1 = measure ? performance.now() : 0;
    if (needsRender || state.playing) {
      renderer.render(scene, camera);
      needsRender = false;
      if (recorder && recorder.onframe && recorder.state === "recording") recorder.onframe();
    }
    if (measure && measure.start) { measure.update += t1 - t0; measure.render += performance.now() - t1; }
    // #fps=S: plays S seconds after a 1 s warm-up and logs the frames per second it drew.
    if (measure) {
      if (!measure.start) { if (now - measure.began > 1000) { measure.start = now; measure.frames = 0; measure.update = measure.render = 0; } }
      else if (now - measure.start < 1000 * measure.seconds) measure.frames++;
      else if (!measure.done) {
        measure.done = true;
        console.log("joco-view fps: " + (1000 * measure.frames / (now - measure.start)).toFixed(1) + " over " +
                    ((now - measure.start) / 1000).toFixed(1) + " s, " + traj(state.k).nframes + " frames, " + M.nbody + " bodies; per frame " +
                    (measure.update / measure.frames).toFixed(2) + " ms setting poses, " + (measure.render / measure.frames).toFixed(2) + " ms in render()");
      }
    }
  }
  var measure = hash.fps ? { seconds: parseFloat(hash.fps) || 5, began: 0 } : null;

  if (!still) { buildUi(); if (plotSets().length) addPlot(); }
  setVisibility();
  resize();
  setCamera(hash.camera || "free");
  setTrajectory(K);
  setTime(hash.time !== undefined ? parseFloat(hash.time) || 0 : traj(K)._time[0]);
  document.title = R.title || "joco-view";

  // The first frame is drawn at once (headless --dump-dom runs no animation frame), and the page
  // says it is ready when its textures are in.
  function ready() {
    if (pending > 0) { setTimeout(ready, 10); return; }
    applyFrame();
    renderer.render(scene, camera);
    document.title = document.title + " [ready]";
    document.body.dataset.ready = "1";
    console.log("joco-view ready: frame " + state.frame + " of " + traj(state.k).name + " at t=" + state.time.toFixed(4));
    if (measure) { measure.began = performance.now(); setPlaying(true); }
    if (hash.selftest) selftest();
    if (hash.record) recordFrames(Math.max(1, parseInt(hash.record, 10) || 30));
    requestAnimationFrame(tick);
  }
  ready();

  // #selftest=1 (the browser tests): every control used once, a frame drawn after each; errors
  // surface as console errors, and the end is logged.
  function selftest() {
    var steps = [], n = 0;
    var add = function (name, f) { steps.push([name, f]); };
    R.trajectories.forEach(function (t, k) { add("trajectory " + k, function () { setTrajectory(k); setFrame(traj(k).nframes - 1); }); });
    add("back to the first", function () { setTrajectory(K); setFrame(0); });
    (M.cameras || []).forEach(function (c, i) { add("camera " + i, function () { setCamera(c.name || String(i)); setFrame(state.frame + 1); }); });
    if (M.nbody > 1) add("track", function () { setCamera("track:" + (M.bodies[1].name || 1)); setFrame(state.frame + 1); });
    add("free", function () { setCamera("free"); });
    ["sites", "contacts", "com", "joints", "shadows", "fog"].forEach(function (o) { add(o, function () { state[o] = true; setVisibility(); }); });
    add("groups", function () { state.groups = { 0: true, 1: true, 2: true, 3: true, 4: true, 5: true }; setVisibility(); });
    R.trajectories.forEach(function (t, k) { if (k !== state.k) add("overlay " + k, function () { state.overlays[k] = true; ghostOf(k); setVisibility(); applyFrame(); }); });
    if (!still) plotSets().forEach(function (p) { add("plot " + p.name, function () { addPlot(p.name); }); });
    add("play", function () { setPlaying(true); });
    add("step", function () { setPlaying(false); setFrame(state.frame + 1); setFrame(state.frame - 1); });
    // (Recording is left out: media keeps a headless browser's virtual time from advancing.)
    function next() {
      renderer.render(scene, camera);
      if (n === steps.length) {
        setPlaying(false);  // idle again: a headless run's remaining virtual time costs nothing
        state.shadows = false;
  state.fog = hash.fog === "1";
        setVisibility();
        console.log("joco-view selftest: ok, " + n + " steps");
        return;
      }
      var s = steps[n++];
      if (hash.selftest === "verbose") console.log("selftest step " + s[0] + " at " + performance.now().toFixed(0) + " ms");
      try { s[1](); } catch (e) { console.error("selftest step " + s[0] + ": " + (e && e.stack || e)); }
      setTimeout(next, 30);
    }
    next();
  }

  // For tests and the console: the page's controls as functions.
  window.JOCO_VIEW = { setTime: setTime, setFrame: setFrame, setPlaying: setPlaying, setTrajectory: setTrajectory,
                       setCamera: setCamera, state: state, renderer: renderer };
})();
